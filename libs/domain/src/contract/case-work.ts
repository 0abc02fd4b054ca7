/** The case work commands' bodies (api.md, Case work); each answers the Case. */
import type { ReorderInput } from '../case/decide-reorder.js';
import type { ExpectedVersion } from './cases.js';

/** `POST /cases/{id}/files`'s body: the caller's uploads, {url, name, type, size} each (checkAddedFiles). */
export interface AddFilesBody extends ExpectedVersion {
  files: unknown[];
}

/** `POST /cases/{id}/files/remove`'s body. */
export interface RemoveFileBody extends ExpectedVersion {
  url: string;
  reason?: string;
}

/** `POST /cases/{id}/reorders`'s body: kind, reasonCode and reason (checkReorder); 201 the new Case. */
export type ReorderBody = ReorderInput & ExpectedVersion;
