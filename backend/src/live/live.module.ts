import { Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module.js';
import { UsersModule } from '../users/users.module.js';
import { LiveController } from './live.controller.js';
import { LiveLog } from './live-log.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { LIVE_OPTIONS } from '../config/live-options.js';
import { LiveStreamService } from './live-stream.service.js';
import { LogTailer } from './log-tailer.service.js';

/** GET /api/events: the live stream, fed from the event log (see README.md). */
@Module({
  imports: [CasesModule, UsersModule],
  controllers: [LiveController],
  providers: [
    { provide: LIVE_OPTIONS, useFactory: (config: AppConfig) => config.live, inject: [APP_CONFIG] },
    LiveLog,
    LogTailer,
    LiveStreamService,
  ],
  exports: [LogTailer, LiveStreamService],
})
export class LiveModule {}
