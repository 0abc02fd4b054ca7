/** What a decider answers: the events to append, or a rejection with its HTTP meaning and text. */
import type { CaseEventData } from './events.js';
import { CASE_TEXTS } from './texts.js';

export type RejectionKind = 'not_found' | 'invalid' | 'forbidden' | 'conflict';

export interface Rejection {
  kind: RejectionKind;
  message: string;
  details?: string[];
}

export type Decision = { ok: true; events: CaseEventData[] } | { ok: false; rejection: Rejection };

export const accept = (...events: CaseEventData[]): Decision => ({ ok: true, events });

export const reject = (kind: RejectionKind, message: string, details?: string[]): Decision => ({
  ok: false,
  rejection: details ? { kind, message, details } : { kind, message },
});

export const conflict = (message: string) => reject('conflict', message);

export const forbidden = (message: string) => reject('forbidden', message);

export const invalid = (message: string, details?: string[]) => reject('invalid', message, details);

export const notFound = (message: string = CASE_TEXTS.notFound) => reject('not_found', message);
