import type { Case } from '@alignerflow/domain';
import { request } from './client';

const path = (id: string, tail: string) => `/cases/${encodeURIComponent(id)}${tail}`;

export interface RetentionSettings {
  eraseAfterYears: number | null;
}

/** api.md "Patient data": the step-up calls go through the client, which asks for the proof. */
export const erasureApi = {
  erase: (item: Case, reason: string) => request<Case>('POST', path(item.id, '/erase'), { body: { reason } }),
  purge: (item: Case, url: string, reason: string) =>
    request<Case>('POST', path(item.id, '/files/purge'), { body: { url, reason } }),
  retention: () => request<RetentionSettings>('GET', '/settings/retention'),
  saveRetention: (eraseAfterYears: number | null) =>
    request<RetentionSettings>('PUT', '/settings/retention', { body: { eraseAfterYears } }),
};
