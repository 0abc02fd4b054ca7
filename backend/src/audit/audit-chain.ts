import { hash, sign, verify, type KeyObject } from 'node:crypto';

/**
 * SQL: the head of an event row `e`'s canonical text (README.md, "The seal"), built from the row
 * with built-in functions only (no function of the schema, which its owner could redefine). One
 * line per field, in this order: global_position, stream_id as a JSON string, stream_version, type
 * as a JSON string, schema_version, recorded_at (UTC, microseconds), metadata as stored (jsonb's
 * canonical text). No line can hold a newline: JSON escapes it, numbers and the time have none.
 */
export const EVENT_HEAD_SQL = `concat_ws(E'\\n', e.global_position, to_json(e.stream_id), e.stream_version,
  to_json(e.type), e.schema_version, to_char(e.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
  e.metadata::text)`;

/** SQL: the hex sha256 of the row's data as stored (jsonb's canonical text). */
export const DATA_SHA256_SQL = `encode(sha256(convert_to(e.data::text, 'UTF8')), 'hex')`;

/**
 * The canonical text of a stored event: its head (EVENT_HEAD_SQL), a newline, and the hex sha256 of
 * its data text. The data enters by its hash so that an export that leaves a secret out (a
 * password hash) can still carry what the seal needs.
 */
export function eventText(head: string, dataSha256: string): string {
  return `${head}\n${dataSha256}`;
}

export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

/** sha256 of the canonical text: what each seal chains. */
export function eventHash(head: string, dataSha256: string): Buffer {
  return hash('sha256', eventText(head, dataSha256), 'buffer');
}

/** What a seal's signature signs: the seal's place in the chain and its chain_hash. */
export function sealMessage(seq: number, position: string, chain: Buffer): Buffer {
  return Buffer.from(`alignerflow seal\n${seq}\n${position}\n${chain.toString('hex')}`, 'utf8');
}

/** A checkpoint as `GET /audit/checkpoints` gives it (api.md): hex head, ISO time, base64 signature. */
export interface Checkpoint {
  position: string;
  headHash: string;
  at: string;
  signature: string;
}

/** What a checkpoint's signature signs. */
export function checkpointMessage(checkpoint: Omit<Checkpoint, 'signature'>): Buffer {
  return Buffer.from(
    `alignerflow checkpoint\n${checkpoint.position}\n${checkpoint.headHash}\n${checkpoint.at}`,
    'utf8',
  );
}

export function signMessage(key: KeyObject, message: Buffer): Buffer {
  return sign(null, message, key);
}

export function signatureHolds(key: KeyObject, message: Buffer, signature: Buffer): boolean {
  try {
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}

/**
 * The answer of `GET /audit/verify` and `npm run verify-log` (api.md, Security). `headHash` is the
 * chain_hash of the last seal checked.
 */
export interface VerifyResult {
  ok: boolean;
  /** Sealed events checked. */
  events: number;
  /** Global position of the first event that no longer matches its seal, else null. */
  firstBroken: string | null;
  headHash: string | null;
}
