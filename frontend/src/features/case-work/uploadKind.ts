import type { UploadKind } from '../../api/uploadFile';

const PHOTO_NAME = /\.(jpe?g|png|gif|webp|heic|heif)$/i;

/** What a chosen file is sent as; the server checks its bytes again. Undefined: not addable. */
export function uploadKindOf(file: Pick<File, 'name' | 'type'>): UploadKind | undefined {
  const name = file.name.toLowerCase();
  if (name.endsWith('.stl')) return 'STL';
  if (name.endsWith('.pdf') || file.type === 'application/pdf') return 'Document';
  if (file.type.startsWith('image/') || PHOTO_NAME.test(name)) return 'Photo';
  return undefined;
}

/** The picker's filter: what uploadKindOf accepts. */
export const ADDABLE_FILES = '.stl,.pdf,application/pdf,image/*';
