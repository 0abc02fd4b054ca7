import { checkLotInput, lotKey, type LotInput } from './lots.js';
import { checkSettingsInput, DEFAULT_MATERIAL_SETTINGS, type MaterialSettings } from './settings.js';

/** A backup's materials: the lots register and the lab's settings (GET /backup, POST /restore). */
export interface BackupMaterials {
  lots: LotInput[];
  settings: Partial<MaterialSettings>;
}

/**
 * The checks of a backup's `materials` (absent in older backups: nothing to restore), with the
 * commands' own checks; the first problem names the entry.
 */
export function checkBackupMaterials(raw: unknown): { value: BackupMaterials } | { error: string } {
  if (raw === undefined || raw === null) return { value: { lots: [], settings: {} } };
  if (typeof raw !== 'object' || Array.isArray(raw))
    return { error: 'Invalid materials: must be an object.' };
  const { lots = [], settings = {} } = raw as { lots?: unknown; settings?: unknown };
  if (!Array.isArray(lots)) return { error: 'Invalid materials: lots must be a list.' };
  const checked: LotInput[] = [];
  const seen = new Set<string>();
  for (const [index, entry] of lots.entries()) {
    const lot =
      entry && typeof entry === 'object'
        ? checkLotInput(entry as Record<string, unknown>)
        : { error: 'not an object.' };
    if ('error' in lot) return { error: `Invalid lot at index ${index}: ${lot.error}` };
    if (seen.has(lotKey(lot.value.lotNumber)))
      return { error: `Invalid lot at index ${index}: ${lot.value.lotNumber} is listed twice.` };
    seen.add(lotKey(lot.value.lotNumber));
    checked.push(lot.value);
  }
  if (!settings || typeof settings !== 'object' || Array.isArray(settings))
    return { error: 'Invalid materials: settings must be an object.' };
  const known = Object.fromEntries(
    Object.entries(settings).filter(([key]) => key in DEFAULT_MATERIAL_SETTINGS),
  ) as Record<string, unknown>;
  const checkedSettings = checkSettingsInput(known, DEFAULT_MATERIAL_SETTINGS);
  if ('error' in checkedSettings) return { error: `Invalid materials settings: ${checkedSettings.error}` };
  // The backup's settings whole (what it leaves out is the default), or none at all.
  const whole = Object.keys(known).length ? { ...DEFAULT_MATERIAL_SETTINGS, ...checkedSettings.value } : {};
  return { value: { lots: checked, settings: whole } };
}
