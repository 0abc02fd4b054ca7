import { Module } from '@nestjs/common';
import { MaterialsStore } from './materials.store.js';

/** The lots register and settings alone, for the case commands that read them (no cycle with cases). */
@Module({ providers: [MaterialsStore], exports: [MaterialsStore] })
export class MaterialsStoreModule {}
