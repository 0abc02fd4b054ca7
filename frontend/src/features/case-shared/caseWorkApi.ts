import type {
  AddFilesBody,
  Case,
  CaseFile,
  RemoveFileBody,
  ReorderBody,
  ReorderInput,
} from '@alignerflow/domain';
import { request } from '../../api/client';

const path = (id: string, rest: string) => `/cases/${encodeURIComponent(id)}${rest}`;

/**
 * The case work commands of api.md. Adding files carries no version: like notes they only add,
 * and the server decides them on the latest state. Removing a file and ordering a follow-up carry
 * the version the user saw.
 */
export const caseWorkApi = {
  addFiles: (caseId: string, files: CaseFile[]) =>
    request<Case>('POST', path(caseId, '/files'), { body: { files } satisfies AddFilesBody }),
  removeFile: (item: Case, url: string, reason: string) =>
    request<Case>('POST', path(item.id, '/files/remove'), {
      body: { url, reason, expectedVersion: item.version } satisfies RemoveFileBody,
    }),
  reorder: (item: Case, input: ReorderInput) =>
    request<Case>('POST', path(item.id, '/reorders'), {
      body: { ...input, expectedVersion: item.version } satisfies ReorderBody,
    }),
};
