import { type Case, type CaseFile, type FileType } from './case.js';
import { CASE_TEXTS, CASE_WORK_TEXTS } from './texts.js';
import { accept, reject, type Decision } from './decision.js';
import type { Actor } from '../permissions/roles.js';
import { checkText, LIMITS } from '../validation/validation.js';

/** The kinds of file a case takes after creation: what POST /upload stores. */
export const ADDABLE_FILE_TYPES: readonly FileType[] = ['STL', 'Photo', 'Document'];

/** A file stored by POST /upload: {base}api/files/{id}/{name}. */
export const STORED_FILE_URL = /^\/(?:[^?#]*\/)?api\/files\/[0-9a-f-]{36}\/[^/?#]+$/;

/**
 * Adding files to a case: anyone who may see the case (staff, its doctor). Only files stored by
 * POST /upload; that they are the caller's own and in no case yet is the server's check, made
 * with the append (the uploads table is not the domain's to read).
 */
export function decideAddFiles(state: Case, input: unknown): Decision {
  const files = checkAddedFiles(input);
  if ('error' in files) return reject('invalid', files.error);
  for (const file of files.value) {
    if (state.files.some((existing) => existing.url === file.url))
      return reject('invalid', CASE_WORK_TEXTS.alreadyAttached(file.name));
  }
  return accept({ type: 'FilesAdded', data: { files: files.value } });
}

export function checkAddedFiles(input: unknown): { value: CaseFile[] } | { error: string } {
  if (!Array.isArray(input) || input.length === 0) return { error: CASE_WORK_TEXTS.filesRequired };
  if (input.length > LIMITS.maxFiles) return { error: CASE_WORK_TEXTS.tooManyFiles(LIMITS.maxFiles) };
  const files: CaseFile[] = [];
  for (const raw of input as Record<string, unknown>[]) {
    const name = checkText('File name', raw?.name, { required: true, max: 255 });
    const url = checkText('File url', raw?.url, { required: true, max: LIMITS.url });
    const size = checkText('File size', raw?.size ?? '', { max: 32 });
    const type = ADDABLE_FILE_TYPES.find((candidate) => candidate === raw?.type);
    if ('error' in name || 'error' in url || 'error' in size || !type)
      return { error: CASE_WORK_TEXTS.fileShape };
    if (!STORED_FILE_URL.test(url.value)) return { error: CASE_WORK_TEXTS.notAnUpload(name.value) };
    if (files.some((file) => file.url === url.value))
      return { error: CASE_WORK_TEXTS.duplicateFile(name.value) };
    files.push({ name: name.value, type, url: url.value, size: size.value });
  }
  return { value: files };
}

/** Removing a file from the list: a Manager, with a reason; the history and the bytes keep it. */
export function decideRemoveFile(state: Case, url: unknown, reason: unknown, actor: Actor): Decision {
  if (actor.role !== 'Manager') return reject('forbidden', CASE_TEXTS.managerOnly);
  if (typeof url !== 'string' || !state.files.some((file) => file.url === url))
    return reject('not_found', CASE_WORK_TEXTS.fileNotFound);
  const checked = checkText('Reason', reason, { max: LIMITS.reason });
  if ('error' in checked) return reject('invalid', checked.error);
  if (!checked.value) return reject('invalid', CASE_WORK_TEXTS.removeReasonRequired);
  return accept({ type: 'FileRemoved', data: { url, reason: checked.value } });
}
