import { Global, Module } from '@nestjs/common';
import { schemaVersionOf, upcast } from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { EventStore, type EventCodec } from './event-store.js';
import { LogListener } from './log-listener.js';

/** The domain's event versions: new events get today's schema version, older ones are upcast on read. */
export const DOMAIN_EVENT_CODEC: EventCodec = { schemaVersionOf, upcast };

/** The event store as the app (and `npm run replay`) uses it: with the domain's codec. */
export function createEventStore(dataSource: DataSource): EventStore {
  return new EventStore(dataSource, DOMAIN_EVENT_CODEC);
}

@Global()
@Module({
  providers: [
    {
      provide: EventStore,
      useFactory: createEventStore,
      inject: [DataSource],
    },
    LogListener,
  ],
  exports: [EventStore, LogListener],
})
export class EventStoreModule {}
