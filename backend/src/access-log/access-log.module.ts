import { Global, Module } from '@nestjs/common';
import { AccessLogController } from './access-log.controller.js';
import { AccessLogService } from './access-log.service.js';

/** Who read or exported what (README.md); global, so every reading controller can record. */
@Global()
@Module({
  providers: [AccessLogService],
  controllers: [AccessLogController],
  exports: [AccessLogService],
})
export class AccessLogModule {}
