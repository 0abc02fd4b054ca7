import { CASE_WORK_TEXTS, FILE_TEXTS, type Actor } from '@alignerflow/domain';
import type { QueryRunner } from 'typeorm';
import { rejectWith } from '../../common/domain-rejection.js';
import { FILE_URL } from '../../common/file-url.js';

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
