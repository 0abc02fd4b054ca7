import { Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module.js';
import { MarkReceivedHandler, RecordShipmentHandler } from './commands/shipment.commands.js';
import { DevicesController } from './devices.controller.js';
import { MaterialsStoreModule } from '../materials-store/materials-store.module.js';
import { MaterialsController } from './materials.controller.js';
import { RecallQuery } from './recall.query.js';

/** Material lots, the device record and statement, shipping (api.md, "Devices"). */
@Module({
  imports: [CasesModule, MaterialsStoreModule],
  controllers: [MaterialsController, DevicesController],
  providers: [RecallQuery, RecordShipmentHandler, MarkReceivedHandler],
  // The seed records the demo lab's settings and lots through the store.
  exports: [MaterialsStoreModule],
})
export class MaterialsModule {}
