import { CASE_WORK_TEXTS, UPLOAD_TEXTS, type Actor } from '@alignerflow/domain';
import type { QueryRunner } from 'typeorm';
import { rejectWith } from '../common/domain-rejection.js';
export const FILE_TEXTS = {
  notStl: 'The STL slots accept only .stl files.',
  notImage: 'The photo slots accept only images.',
  notPdf: UPLOAD_TEXTS.notPdf,
  tooLarge: UPLOAD_TEXTS.tooLarge,
  unknownKind: UPLOAD_TEXTS.unknownKind,
  noFile: 'Choose a file to upload.',
  badForm: 'An upload is one file part named "file" with the fields type and caseId.',
  interrupted: 'The upload was interrupted.',
  notYours: CASE_WORK_TEXTS.notYours,
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

/**
 * Files added to an existing case take their uploads with the append, in its transaction: the
 * caller's own, in no other case (an upload made for this very case with POST /upload's caseId,
 * or one removed from its list earlier, may be added). Locked, so two cases cannot both take one.
 */
export async function claimUploadsForCase(
  runner: QueryRunner,
  caseId: string,
  files: { url: string; name: string; type: string }[],
  actor: Actor,
) {
  const ids = files.map((file) => FILE_URL.exec(file.url)?.[1]);
  if (ids.some((id) => !id)) rejectWith('invalid', FILE_TEXTS.notYours);
  const rows: { id: string; uploader: string; case_id: string | null; kind: string }[] = await runner.query(
    'SELECT id::text, uploader, case_id, kind FROM uploads WHERE id = ANY($1::uuid[]) FOR UPDATE',
    [ids],
  );
  for (const [index, id] of ids.entries()) {
    const row = rows.find((candidate) => candidate.id === id);
    if (!row || row.uploader !== actor.username.toLowerCase()) rejectWith('invalid', FILE_TEXTS.notYours);
    if (row.case_id !== null && row.case_id !== caseId)
      rejectWith('invalid', CASE_WORK_TEXTS.alreadyAttached(files[index].name));
    // The list says what the server found the bytes to be, not what the caller claims.
    if (row.kind !== files[index].type)
      rejectWith('invalid', CASE_WORK_TEXTS.wrongType(files[index].name, row.kind));
  }
  await runner.query('UPDATE uploads SET case_id = $1 WHERE id = ANY($2::uuid[])', [caseId, ids]);
}
