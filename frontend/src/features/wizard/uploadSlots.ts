import { WIZARD_TEXTS } from './texts';
import type { UploadKind } from '../../api/uploadFile';

export type SlotKey = 'upper' | 'lower' | 'photo1' | 'photo2' | 'photo3' | 'photo4';

export interface SlotDefinition {
  key: SlotKey;
  kind: UploadKind;
  label: string;
  accept: string;
}

/** Spec sections 5 and 9: two STL slots (Upper, Lower) accepting .stl, four photo slots accepting images. */
export const STL_SLOTS: SlotDefinition[] = [
  { key: 'upper', kind: 'STL', label: WIZARD_TEXTS.upper, accept: '.stl' },
  { key: 'lower', kind: 'STL', label: WIZARD_TEXTS.lower, accept: '.stl' },
];

export const PHOTO_SLOTS: SlotDefinition[] = [1, 2, 3, 4].map((n) => ({
  key: `photo${n}` as SlotKey,
  kind: 'Photo' as const,
  label: WIZARD_TEXTS.photo(n),
  accept: 'image/*',
}));

export const ALL_SLOTS = [...STL_SLOTS, ...PHOTO_SLOTS];
