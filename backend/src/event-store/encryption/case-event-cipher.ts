import { createCipheriv, createDecipheriv } from 'node:crypto';
import type { EventCipher, NewEvent, RecordedEvent, StreamAppend, StreamEvents } from '../event-types.js';
import type { QueryRunner } from 'typeorm';
import type { CaseKeys } from './case-keys.js';
import { freshIv } from './random-ivs.js';
import {
  caseOfStream,
  erasedValue,
  isSealed,
  mapSealedFields,
  SEALED_FIELDS,
  type SealedKind,
} from './sealed-fields.js';

const VERSION = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The data's key that holds an event's one ciphertext. */
export const SEALED_BATCH = '$sealed';

/**
 * The event store's cipher for case streams: the patient-identifying fields of each event
 * (sealed-fields.ts) are encrypted with AES-256-GCM under the case's key as the event is built for
 * its append, and decrypted as stored rows are read, before upcasting. So the domain, the
 * projections, the rebuild and the replay see plaintext and never knew. The case id is the
 * additional authenticated data: a sealed value copied into another case does not open there.
 *
 * A value that does not open (its key destroyed by an erasure, or a key made after it) reads as
 * its kind's erased value.
 */
export class CaseEventCipher implements EventCipher {
  constructor(readonly keys: CaseKeys) {}

  async seal(appends: StreamAppend[]): Promise<StreamAppend[]> {
    const cases = casesToSeal(appends);
    if (!cases.length) return appends;
    const keys = await this.keys.keysFor(cases);
    return appends.map((append) => {
      const caseId = caseOfStream(append.streamId);
      const key = caseId && keys.get(caseId);
      return key
        ? { ...append, events: append.events.map((event) => sealEvent(event, caseId, key)) }
        : append;
    });
  }

  async prepare(appends: StreamEvents[]): Promise<() => void> {
    const cases = casesToSeal(appends);
    return cases.length ? this.keys.hold(cases) : () => undefined;
  }

  async open(events: RecordedEvent[], queryRunner?: QueryRunner): Promise<void> {
    const sealed = events.filter(holdsSealedValues);
    if (!sealed.length) return;
    const keys = await this.keys.existingKeys(
      sealed.map(({ streamId }) => caseOfStream(streamId)!),
      queryRunner,
    );
    for (const event of sealed) {
      const caseId = caseOfStream(event.streamId)!;
      const key = keys.get(caseId) ?? null;
      const stored: unknown = event.data;
      let data: unknown;
      let opened = false;
      // Decrypted when first read: the readers that follow the whole log (live updates, the
      // dispatcher, the invoice issuer) mostly look at an event's type and never pay for it.
      Object.defineProperty(event, 'data', {
        configurable: true,
        enumerable: true,
        get() {
          if (!opened) {
            data = openEvent(event.type, stored, caseId, key);
            opened = true;
          }
          return data;
        },
        set(value: unknown) {
          data = value;
          opened = true;
        },
      });
    }
  }
}

function holdsSealedValues(event: RecordedEvent): boolean {
  if (!SEALED_FIELDS[event.type] || !caseOfStream(event.streamId)) return false;
  if (hasSealedBatch(event.data)) return true;
  let found = false;
  mapSealedFields(event.type, event.data, (value) => {
    found ||= isSealed(value);
    return value;
  });
  return found;
}

function hasSealedBatch(data: unknown): data is Record<string, unknown> & { [SEALED_BATCH]: string } {
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as Record<string, unknown>)[SEALED_BATCH] === 'string'
  );
}

/**
 * `stored` as it was written: each marker `{$enc: n}` replaced by the n-th value of the event's
 * one ciphertext, a `{$enc: "v1:…"}` by its own. What does not open reads as erased.
 */
export function openEvent(type: string, stored: unknown, caseId: string, key: Buffer | null): unknown {
  let values: unknown[] | null = null;
  let data = stored;
  if (hasSealedBatch(stored)) {
    const { [SEALED_BATCH]: batch, ...rest } = stored;
    const opened = openValue(batch, 'files', caseId, key);
    values = Array.isArray(opened) && opened.length ? opened : null;
    data = rest;
  }
  return mapSealedFields(type, data, (value, kind) => {
    if (!isSealed(value)) return value;
    if (typeof value.$enc === 'number')
      return values && value.$enc < values.length ? values[value.$enc] : erasedValue(kind);
    return openValue(value.$enc, kind, caseId, key);
  });
}

/**
 * `event` with its sealed fields encrypted: all of them together, in one AES-GCM ciphertext of
 * their values (one cipher set-up per event, not per field) kept in the data's `$sealed`, each
 * field replaced by `{$enc: n}`, its place in that list. An event already sealed stays as it is.
 */
export function sealEvent(event: NewEvent, caseId: string, key: Buffer): NewEvent {
  if (!SEALED_FIELDS[event.type] || hasSealedBatch(event.data)) return event;
  const values: unknown[] = [];
  const data = mapSealedFields(event.type, event.data, (value) => {
    if (isSealed(value)) return value;
    values.push(value);
    return { $enc: values.length - 1 };
  });
  if (!values.length) return event;
  return {
    ...event,
    json: undefined,
    data: { ...(data as object), [SEALED_BATCH]: sealValue(values, caseId, key) },
  };
}

export function sealValue(value: unknown, caseId: string, key: Buffer): string {
  const iv = freshIv();
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(caseId, 'utf8'));
  const body = cipher.update(JSON.stringify(value), 'utf8');
  cipher.final(); // GCM is a stream mode: final adds no bytes, it computes the tag
  const sealed = Buffer.allocUnsafe(IV_BYTES + body.length + TAG_BYTES);
  iv.copy(sealed, 0);
  body.copy(sealed, IV_BYTES);
  cipher.getAuthTag().copy(sealed, IV_BYTES + body.length);
  return VERSION + sealed.toString('base64');
}

export function openValue(sealed: string, kind: SealedKind, caseId: string, key: Buffer | null): unknown {
  if (!key || !sealed.startsWith(VERSION)) return erasedValue(kind);
  const raw = Buffer.from(sealed.slice(VERSION.length), 'base64');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(caseId, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    const plain = decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES), undefined, 'utf8');
    // final throws when the tag does not authenticate: nothing of `plain` is used before it.
    return JSON.parse(plain + decipher.final('utf8'));
  } catch {
    // Sealed under a key that is no more (the case was erased, then written to again).
    return erasedValue(kind);
  }
}

/** The cases whose keys sealing `appends` needs: those with an event that holds patient data. */
function casesToSeal(appends: StreamEvents[]): string[] {
  return appends
    .filter(
      ({ streamId, events }) => caseOfStream(streamId) && events.some(({ type }) => SEALED_FIELDS[type]),
    )
    .map(({ streamId }) => caseOfStream(streamId)!);
}
