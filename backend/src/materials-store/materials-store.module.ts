import { Module } from '@nestjs/common';
import { MaterialsBackup } from './materials-backup.js';
import { MaterialsStore } from './materials.store.js';

/** The lots register and settings alone, for the case commands that read them (no cycle with cases). */
@Module({ providers: [MaterialsStore, MaterialsBackup], exports: [MaterialsStore, MaterialsBackup] })
export class MaterialsStoreModule {}
