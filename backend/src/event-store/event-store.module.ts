import { Global, Module } from '@nestjs/common';
import { schemaVersionOf, upcast } from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { CaseEventCipher } from './encryption/case-event-cipher.js';
import { CaseKeys } from './encryption/case-keys.js';
import { loadMasterKey } from './encryption/master-key.js';
import { EventStore, type EventCodec } from './event-store.js';
import { LogListener } from './log-listener.js';

/** The domain's event versions: new events get today's schema version, older ones are upcast on read. */
export const DOMAIN_EVENT_CODEC: EventCodec = { schemaVersionOf, upcast };

/**
 * The event store as the app (and `npm run replay`) uses it: with the domain's codec and the
 * cases' keys, so patient data is sealed on append and opened on read (patient-data/README.md).
 * Without keys, data is stored and read as given (tests of the log alone).
 */
export function createEventStore(dataSource: DataSource, keys?: CaseKeys): EventStore {
  return new EventStore(dataSource, DOMAIN_EVENT_CODEC, keys && new CaseEventCipher(keys));
}

@Global()
@Module({
  providers: [
    {
      provide: CaseKeys,
      useFactory: (dataSource: DataSource, config: AppConfig) =>
        new CaseKeys(dataSource, loadMasterKey(config.masterKeyFile)),
      inject: [DataSource, APP_CONFIG],
    },
    {
      provide: EventStore,
      useFactory: createEventStore,
      inject: [DataSource, CaseKeys],
    },
    LogListener,
  ],
  exports: [EventStore, LogListener, CaseKeys],
})
export class EventStoreModule {}
