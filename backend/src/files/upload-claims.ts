import type { Actor } from '@alignerflow/domain';
import type { QueryRunner } from 'typeorm';
import { rejectWith } from '../common/domain-rejection.js';
import type { UploadKind } from './file-types.js';

export const FILE_TEXTS = {
  notStl: 'The STL slots accept only .stl files.',
  notImage: 'The photo slots accept only images.',
  tooLarge: (kind: UploadKind) =>
    `The file is too large: ${kind === 'STL' ? 'STL files up to 200 MB' : 'photos up to 25 MB'}.`,
  unknownKind: 'The file type must be STL or Photo.',
  noFile: 'Choose a file to upload.',
  badForm: 'An upload is one file part named "file" with the fields type and caseId.',
  interrupted: 'The upload was interrupted.',
  notYours: 'A case can only carry files you uploaded yourself.',
  notFound: 'File not found.',
} as const;

/** The upload id inside a stored file's url ({base}api/files/{id}/{name}). */
export const FILE_URL = /\/api\/files\/([0-9a-f-]{36})\//;

/**
 * A new case takes its uploaded files, inside the creating transaction: they must be the
 * creator's own uploads, not yet in a case, so nobody can attach (and so read) someone else's.
 */
export async function claimUploads(
  runner: QueryRunner,
  caseId: string,
  files: { url: string }[],
  actor: Actor,
) {
  const local = files.filter((file) => file.url.startsWith('/'));
  const ids = local.map((file) => FILE_URL.exec(file.url)?.[1]);
  if (ids.some((id) => !id)) rejectWith('invalid', FILE_TEXTS.notYours);
  if (!ids.length) return;
  const claimed = await runner.query(
    'UPDATE uploads SET case_id = $1 WHERE id = ANY($2::uuid[]) AND uploader = $3 AND case_id IS NULL',
    [caseId, ids, actor.username.toLowerCase()],
    true,
  );
  if (claimed.affected !== new Set(ids).size) rejectWith('invalid', FILE_TEXTS.notYours);
}
