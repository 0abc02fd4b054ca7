import { Injectable } from '@nestjs/common';
import {
  checkLotInput,
  checkSettingsInput,
  decideRegisterLot,
  DEVICE_TEXTS,
  emptyLotRegister,
  evolveLots,
  evolveSettings,
  initialSettingsState,
  isStaff,
  lotKey,
  LOTS_STREAM,
  SETTINGS_STREAM,
  type Actor,
  type Lot,
  type LotRegister,
  type LotRegisteredEvent,
  type LotUse,
  type MaterialSettings,
  type MaterialSettingsChangedEvent,
  type SettingsState,
} from '@alignerflow/domain';
import { rejectWith } from '../common/domain-rejection.js';
import { EventStore, WrongExpectedVersionError, type RecordedEvent } from '../event-store/event-store.js';

const ATTEMPTS = 5;

/**
 * The lab's lots register and materials settings: two small streams, folded here. Each read
 * brings the fold up to date with the events appended since (one indexed query, usually empty),
 * so every process answers from the log itself and no read model needs rebuilding. A register
 * or change is decided on the fold and appended with its version: two people registering one
 * lot number at once cannot both succeed.
 */
@Injectable()
export class MaterialsStore {
  private lots: LotRegister = emptyLotRegister();
  private settingsState: SettingsState = initialSettingsState();

  constructor(private readonly store: EventStore) {}

  async register(): Promise<LotRegister> {
    for (const event of await this.after(LOTS_STREAM, this.lots.version)) {
      // Another read of this process may have applied it meanwhile.
      if (event.version !== this.lots.version + 1) continue;
      this.lots = evolveLots(this.lots, {
        type: 'LotRegistered',
        data: event.data as LotRegisteredEvent['data'],
        actor: event.metadata.actor,
        at: event.recordedAt,
      });
    }
    return this.lots;
  }

  async settings(): Promise<MaterialSettings> {
    for (const event of await this.after(SETTINGS_STREAM, this.settingsState.version)) {
      if (event.version !== this.settingsState.version + 1) continue;
      this.settingsState = evolveSettings(this.settingsState, {
        type: 'MaterialSettingsChanged',
        data: event.data,
      } as MaterialSettingsChangedEvent);
    }
    return this.settingsState.settings;
  }

  /** Every lot, newest first. */
  async list(): Promise<Lot[]> {
    return [...(await this.register()).lots.values()].reverse();
  }

  /** The lots named at a stage's completion, each with its registered lot (null when unknown). */
  async resolve(lotNumbers: string[]): Promise<LotUse[]> {
    const register = await this.register();
    return lotNumbers.map((lotNumber) => ({
      lotNumber: lotNumber.trim(),
      lot: register.lots.get(lotKey(lotNumber)) ?? null,
    }));
  }

  async registerLot(input: Record<string, unknown>, actor: Actor, correlationId: string): Promise<Lot> {
    if (actor.role !== 'Manager' && actor.role !== 'Technician')
      rejectWith('forbidden', DEVICE_TEXTS.lotRoles);
    const checked = checkLotInput(input);
    if ('error' in checked) rejectWith('invalid', checked.error);
    const { value } = checked as Exclude<typeof checked, { error: string }>;
    for (let attempt = 1; ; attempt++) {
      const register = await this.register();
      const decision = decideRegisterLot(register, value);
      if (!decision.ok) rejectWith(decision.kind, decision.message);
      const { event } = decision as Extract<typeof decision, { ok: true }>;
      try {
        await this.store.append(LOTS_STREAM, register.version, [event], { actor, correlationId });
        return (await this.register()).lots.get(lotKey(value.lotNumber))!;
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError) || attempt >= ATTEMPTS) throw error;
      }
    }
  }

  async changeSettings(
    input: Record<string, unknown>,
    actor: Actor,
    correlationId: string,
  ): Promise<MaterialSettings> {
    if (actor.role !== 'Manager') rejectWith('forbidden', DEVICE_TEXTS.settingsRoles);
    for (let attempt = 1; ; attempt++) {
      const current = await this.settings();
      const checked = checkSettingsInput(input, current);
      if ('error' in checked) rejectWith('invalid', checked.error);
      const { value: changes } = checked as Exclude<typeof checked, { error: string }>;
      if (!Object.keys(changes).length) return current;
      try {
        const event: MaterialSettingsChangedEvent = { type: 'MaterialSettingsChanged', data: { changes } };
        await this.store.append(SETTINGS_STREAM, this.settingsState.version, [event], {
          actor,
          correlationId,
        });
        return await this.settings();
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError) || attempt >= ATTEMPTS) throw error;
      }
    }
  }

  /** Staff only: the materials are the lab's business. */
  requireStaff(actor: Actor): void {
    if (!isStaff(actor.role)) rejectWith('forbidden', DEVICE_TEXTS.staffOnly);
  }

  private after(streamId: string, version: number): Promise<RecordedEvent[]> {
    return this.store.readStreamsAfter([{ streamId, version }]);
  }
}
