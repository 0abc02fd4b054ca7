import { Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EventStore } from './event-store.js';

@Global()
@Module({
  providers: [
    {
      provide: EventStore,
      useFactory: (dataSource: DataSource) => new EventStore(dataSource),
      inject: [DataSource],
    },
  ],
  exports: [EventStore],
})
export class EventStoreModule {}
