import type { CaseFile } from '@alignerflow/domain';
import { API_BASE } from './client';
import { WIZARD_TEXTS } from '../features/wizard/texts';

export type UploadKind = 'STL' | 'Photo' | 'Document';

/** The answer of POST /upload: what the case's `files` list takes. */
export type UploadedFile = CaseFile;

export class UploadFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UploadFailure';
  }
}

export interface UploadHandle {
  promise: Promise<UploadedFile>;
  abort: () => void;
}

/** The server's error text (cut to 300 characters), else 'Upload failed with status {code}'. */
function failureText(status: number, body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object') {
      const { error } = parsed as { error?: unknown };
      if (typeof error === 'string' && error) return error.slice(0, 300);
    }
  } catch {
    // not JSON
  }
  return WIZARD_TEXTS.uploadFailedStatus(status);
}

/**
 * POST {base}api/upload as multipart (file, type, optional caseId) with XMLHttpRequest, which
 * reports upload progress (fetch cannot). The session cookie goes along (same origin).
 */
export function uploadFile(
  file: File,
  type: UploadKind,
  onProgress: (percent: number) => void,
  caseId?: string,
): UploadHandle {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<UploadedFile>((resolve, reject) => {
    xhr.open('POST', `${API_BASE}/upload`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
      }
    };
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(new UploadFailure(failureText(xhr.status, xhr.responseText)));
        return;
      }
      try {
        const answer = JSON.parse(xhr.responseText) as UploadedFile;
        if (!answer || typeof answer.url !== 'string') throw new Error('no url');
        onProgress(100);
        resolve({
          name: answer.name ?? file.name,
          url: answer.url,
          size: answer.size,
          type: answer.type ?? type,
        });
      } catch {
        reject(new UploadFailure(WIZARD_TEXTS.uploadFailed));
      }
    };
    xhr.onerror = () => reject(new UploadFailure(WIZARD_TEXTS.uploadNetworkError));
    xhr.ontimeout = () => reject(new UploadFailure(WIZARD_TEXTS.uploadFailed));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    const form = new FormData();
    form.append('type', type);
    if (caseId) form.append('caseId', caseId);
    form.append('file', file, file.name);
    try {
      xhr.send(form);
    } catch {
      reject(new UploadFailure(WIZARD_TEXTS.uploadFailed));
    }
  });
  return { promise, abort: () => xhr.abort() };
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** The text shown for a failed upload (spec section 8): never an empty message. */
export function uploadErrorText(error: unknown): string {
  return error instanceof UploadFailure ? error.message : WIZARD_TEXTS.uploadFailed;
}
