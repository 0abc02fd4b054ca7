import { checkText } from '../validation/validation.js';
import { DEVICE_TEXTS } from './texts.js';

/** The lab's settings of materials, statement and shipping (GET/PUT /materials/settings). */
export interface MaterialSettings {
  /** Completing Model Printing or Thermoforming needs a lot. */
  requireLots: boolean;
  /** Days a shipment travels: the ship-by date is the due date minus these. 0 to 30. */
  transitDays: number;
  manufacturerName: string;
  manufacturerAddress: string;
  responsiblePerson: string;
  /** The lab's own conformity text (the requirements not met, and why); empty: full conformity. */
  conformityText: string;
}

export const DEFAULT_MATERIAL_SETTINGS: MaterialSettings = {
  requireLots: false,
  transitDays: 0,
  manufacturerName: '',
  manufacturerAddress: '',
  responsiblePerson: '',
  conformityText: '',
};

export const SETTINGS_STREAM = 'materials-settings';
export const MAX_TRANSIT_DAYS = 30;

export interface MaterialSettingsChangedEvent {
  type: 'MaterialSettingsChanged';
  data: { changes: Partial<MaterialSettings> };
}

export interface SettingsState {
  settings: MaterialSettings;
  version: number;
}

export const initialSettingsState = (): SettingsState => ({
  settings: { ...DEFAULT_MATERIAL_SETTINGS },
  version: 0,
});

export function evolveSettings(state: SettingsState, event: MaterialSettingsChangedEvent): SettingsState {
  return { settings: { ...state.settings, ...event.data.changes }, version: state.version + 1 };
}

const TEXT_FIELDS = [
  ['manufacturerName', 'Manufacturer name', 200],
  ['manufacturerAddress', 'Manufacturer address', 500],
  ['responsiblePerson', 'Responsible person', 200],
  ['conformityText', 'Conformity text', 2000],
] as const;

/** The checks of PUT /materials/settings: the fields that change, or the first problem. */
export function checkSettingsInput(
  input: Record<string, unknown>,
  current: MaterialSettings,
): { value: Partial<MaterialSettings> } | { error: string } {
  const changes: Partial<MaterialSettings> = {};
  if (input.requireLots !== undefined) {
    if (typeof input.requireLots !== 'boolean') return { error: DEVICE_TEXTS.requireLots };
    if (input.requireLots !== current.requireLots) changes.requireLots = input.requireLots;
  }
  if (input.transitDays !== undefined) {
    const days = typeof input.transitDays === 'string' ? Number(input.transitDays) : input.transitDays;
    if (typeof days !== 'number' || !Number.isInteger(days) || days < 0 || days > MAX_TRANSIT_DAYS)
      return { error: DEVICE_TEXTS.transitDays };
    if (days !== current.transitDays) changes.transitDays = days;
  }
  for (const [field, label, max] of TEXT_FIELDS) {
    if (input[field] === undefined) continue;
    const text = checkText(label, input[field], { max });
    if ('error' in text) return text;
    if (text.value !== current[field]) changes[field] = text.value;
  }
  return { value: changes };
}
