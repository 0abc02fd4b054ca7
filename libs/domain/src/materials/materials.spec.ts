import { checkBackupMaterials } from './backup-materials.js';
import {
  checkLotInput,
  decideRegisterLot,
  emptyLotRegister,
  evolveLots,
  isLotExpired,
  lotNumberFromScan,
  lotQrPayload,
  type LotInput,
  type LotRegister,
} from './lots.js';
import {
  checkSettingsInput,
  DEFAULT_MATERIAL_SETTINGS,
  evolveSettings,
  initialSettingsState,
} from './settings.js';
import { DEVICE_TEXTS } from './texts.js';

const sheet: LotInput = {
  lotNumber: 'PETG-2025-07',
  kind: 'sheet',
  product: 'Duran 0.75',
  supplier: null,
  expiresOn: '2026-01-31',
};

/** Given lots registered, in order, by tech. */
function given(...lots: LotInput[]): LotRegister {
  return lots.reduce(
    (register, data) =>
      evolveLots(register, {
        type: 'LotRegistered',
        data,
        actor: { username: 'tech' },
        at: '2025-03-20T10:00:00.000Z',
      }),
    emptyLotRegister(),
  );
}

describe('the lots register', () => {
  it('registers a new lot, with who and when', () => {
    const decision = decideRegisterLot(given(), sheet);
    expect(decision).toEqual({ ok: true, event: { type: 'LotRegistered', data: sheet } });
    const register = given(sheet);
    expect(register.version).toBe(1);
    expect(register.lots.get('PETG-2025-07')).toEqual({
      ...sheet,
      addedAt: '2025-03-20T10:00:00.000Z',
      addedBy: 'tech',
    });
  });

  it('refuses a lot number already registered, whatever its letter case (409)', () => {
    expect(decideRegisterLot(given(sheet), { ...sheet, lotNumber: 'petg-2025-07' })).toEqual({
      ok: false,
      kind: 'conflict',
      message: 'Lot petg-2025-07 is already registered.',
    });
  });

  it('checks the input', () => {
    expect(checkLotInput({ ...sheet, kind: 'glue' })).toEqual({ error: DEVICE_TEXTS.lotKind });
    expect(checkLotInput({ ...sheet, lotNumber: ' ' })).toEqual({ error: DEVICE_TEXTS.lotNumberRequired });
    expect(checkLotInput({ ...sheet, product: '' })).toEqual({ error: DEVICE_TEXTS.productRequired });
    expect(checkLotInput({ ...sheet, expiresOn: '2025-02-30' })).toEqual({ error: DEVICE_TEXTS.expiresOn });
    expect(
      checkLotInput({ kind: 'resin', lotNumber: ' R1 ', product: 'Model resin', supplier: ' Acme ' }),
    ).toEqual({
      value: { kind: 'resin', lotNumber: 'R1', product: 'Model resin', supplier: 'Acme', expiresOn: null },
    });
  });

  it('expires after its expiry day', () => {
    expect(isLotExpired(sheet, '2026-01-31')).toBe(false);
    expect(isLotExpired(sheet, '2026-02-01')).toBe(true);
    expect(isLotExpired({ expiresOn: null }, '2099-01-01')).toBe(false);
  });
});

describe('the materials settings', () => {
  it('default to no lot required and no transit days', () => {
    expect(initialSettingsState().settings).toEqual(DEFAULT_MATERIAL_SETTINGS);
    expect(DEFAULT_MATERIAL_SETTINGS).toMatchObject({ requireLots: false, transitDays: 0 });
  });

  it('take only what changes', () => {
    expect(
      checkSettingsInput(
        { requireLots: true, transitDays: 0, manufacturerName: ' Lab ' },
        DEFAULT_MATERIAL_SETTINGS,
      ),
    ).toEqual({
      value: { requireLots: true, manufacturerName: 'Lab' },
    });
    const state = evolveSettings(initialSettingsState(), {
      type: 'MaterialSettingsChanged',
      data: { changes: { transitDays: 3 } },
    });
    expect(state).toEqual({ settings: { ...DEFAULT_MATERIAL_SETTINGS, transitDays: 3 }, version: 1 });
  });

  it.each([-1, 31, 2.5, 'x', null])('refuse transit days of %p', (transitDays) => {
    expect(checkSettingsInput({ transitDays }, DEFAULT_MATERIAL_SETTINGS)).toEqual({
      error: DEVICE_TEXTS.transitDays,
    });
  });

  it('refuse a requireLots that is not a boolean', () => {
    expect(checkSettingsInput({ requireLots: 'yes' }, DEFAULT_MATERIAL_SETTINGS)).toEqual({
      error: DEVICE_TEXTS.requireLots,
    });
  });
});

describe('lot labels', () => {
  it('carry the lot number, and a scan reads it back (or a plain code)', () => {
    expect(lotNumberFromScan(lotQrPayload('PETG-2025-07'))).toBe('PETG-2025-07');
    expect(lotNumberFromScan('  R-1 ')).toBe('R-1');
    expect(lotNumberFromScan('')).toBeNull();
  });
});

describe("a backup's materials", () => {
  it('are checked with the commands own checks', () => {
    expect(checkBackupMaterials(undefined)).toEqual({ value: { lots: [], settings: {} } });
    expect(checkBackupMaterials({ lots: [sheet, sheet] })).toEqual({
      error: 'Invalid lot at index 1: PETG-2025-07 is listed twice.',
    });
    expect(checkBackupMaterials({ lots: [], settings: { transitDays: 99 } })).toEqual({
      error: `Invalid materials settings: ${DEVICE_TEXTS.transitDays}`,
    });
    expect(checkBackupMaterials({ lots: [sheet], settings: { transitDays: 2 } })).toEqual({
      value: { lots: [sheet], settings: { ...DEFAULT_MATERIAL_SETTINGS, transitDays: 2 } },
    });
  });
});
