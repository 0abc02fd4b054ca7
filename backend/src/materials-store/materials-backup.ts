import { Injectable } from '@nestjs/common';
import {
  emptyLotRegister,
  evolveLots,
  evolveSettings,
  initialSettingsState,
  lotKey,
  LOTS_STREAM,
  SETTINGS_STREAM,
  type BackupMaterials,
  type LotRegisteredEvent,
  type MaterialSettings,
  type MaterialSettingsChangedEvent,
} from '@alignerflow/domain';
import type { QueryRunner } from 'typeorm';
import { EventStore, type EventMetadata } from '../event-store/event-store.js';
import { MaterialsStore } from './materials.store.js';

/**
 * The materials in a backup and a restore: the lots register and the lab's settings. A restore
 * overwrites nothing: it registers the backup's lots the register lacks and records the backup's
 * settings, as events in the restore's own transaction.
 */
@Injectable()
export class MaterialsBackup {
  constructor(
    private readonly store: EventStore,
    private readonly materials: MaterialsStore,
  ) {}

  /** `{lots, settings}` as one JSON text, oldest lot first (the order they are restored in). */
  async json(): Promise<string> {
    const lots = (await this.materials.list()).reverse();
    const settings = await this.materials.settings();
    return JSON.stringify({
      lots: lots.map(({ lotNumber, kind, product, supplier, expiresOn }) => ({
        lotNumber,
        kind,
        product,
        supplier,
        expiresOn,
      })),
      settings,
    });
  }

  async restore(runner: QueryRunner, backup: BackupMaterials, metadata: EventMetadata): Promise<void> {
    const register = emptyLotRegister();
    for (const event of await this.store.readStream(LOTS_STREAM, runner))
      evolveLots(register, { type: 'LotRegistered', data: event.data, actor: null, at: event.recordedAt });
    const missing: LotRegisteredEvent[] = backup.lots
      .filter((lot) => !register.lots.has(lotKey(lot.lotNumber)))
      .map((data) => ({ type: 'LotRegistered', data }));
    if (missing.length) await this.store.append(LOTS_STREAM, register.version, missing, metadata, runner);

    if (!Object.keys(backup.settings).length) return;
    let state = initialSettingsState();
    for (const event of await this.store.readStream(SETTINGS_STREAM, runner))
      state = evolveSettings(state, { type: 'MaterialSettingsChanged', data: event.data });
    const changes = Object.fromEntries(
      Object.entries(backup.settings).filter(
        ([key, value]) => state.settings[key as keyof MaterialSettings] !== value,
      ),
    ) as Partial<MaterialSettings>;
    if (!Object.keys(changes).length) return;
    const event: MaterialSettingsChangedEvent = { type: 'MaterialSettingsChanged', data: { changes } };
    await this.store.append(SETTINGS_STREAM, state.version, [event], metadata, runner);
  }
}
