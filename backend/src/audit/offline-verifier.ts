import { createPublicKey, type KeyObject } from 'node:crypto';
import { chainHash, GENESIS } from '../common/hash-chain.js';
import {
  checkpointMessage,
  eventHash,
  sealMessage,
  sha256Hex,
  signatureHolds,
  type Checkpoint,
} from './audit-chain.js';
import type { StoredRow } from './export-seals.js';

/** A line of `GET /events/export`, as far as the offline check reads it. */
interface ExportLine {
  position: string;
  streamId: string;
  version: number;
  type: string;
  stored?: StoredRow;
}

/** The answer of `npm run verify-log -- --file …` (README.md, "Verifying offline"). */
export interface OfflineResult {
  ok: boolean;
  /** Sealed events checked. */
  events: number;
  /** Events at the end of the export that were not sealed yet when it was taken. */
  unsealed: number;
  /** Global position of the first event that does not match, else null. */
  firstBroken: string | null;
  /** Why, in words, when something does not match. */
  reason: string | null;
  /** Positions of the checkpoints whose signature does not hold. */
  badCheckpoints: string[];
  /** Signed checkpoints beyond the export's last event: the newest events were deleted. */
  missing: { after: string | null; through: string } | null;
  headHash: string | null;
  /** Checkpoints the chain was found to pass through. */
  checkpointsMatched: number;
}

interface Checked {
  seq: number;
  position: string;
  chain: Buffer;
  signature: Buffer;
}

/**
 * Checks an event export against the seals it carries, the signed checkpoints and the public key,
 * without a database. Every event's seal is recomputed from its stored row and chained; a signed
 * checkpoint must be met with the same head. The seals' own signatures are checked only where they
 * decide something: back to the last checkpoint met, when a break is found, and after the last
 * checkpoint, so that a seal rewritten together with its event is named, not the one after it.
 */
export async function verifyExport(
  lines: AsyncIterable<string>,
  checkpoints: Checkpoint[],
  publicKeyPem: string,
): Promise<OfflineResult> {
  const key = createPublicKey(publicKeyPem);
  const badCheckpoints: string[] = [];
  const signed = new Map<string, Checkpoint>();
  for (const checkpoint of checkpoints) {
    const { signature, ...content } = checkpoint;
    if (signatureHolds(key, checkpointMessage(content), Buffer.from(signature, 'base64')))
      signed.set(checkpoint.position, checkpoint);
    else badCheckpoints.push(checkpoint.position);
  }

  const result: OfflineResult = {
    ok: true,
    events: 0,
    unsealed: 0,
    firstBroken: null,
    reason: null,
    badCheckpoints,
    missing: null,
    headHash: null,
    checkpointsMatched: 0,
  };
  const broken = (position: string, reason: string) => {
    result.ok = false;
    result.firstBroken = position;
    result.reason = reason;
    return result;
  };
  /** Seals since the last checkpoint met: where a rewritten seal can hide. */
  let window: Checked[] = [];
  let previous: Buffer = GENESIS;
  let firstUnsealed: string | null = null;
  let unsealed = 0;
  let lastPosition: string | null = null;
  const seen = new Set<string>();

  for await (const text of lines) {
    if (!text.trim()) continue;
    const line = JSON.parse(text) as ExportLine;
    const stored = line.stored;
    if (!stored || stored.seq === null || !stored.chain || !stored.signature) {
      firstUnsealed ??= line.position;
      unsealed++;
      continue;
    }
    if (firstUnsealed !== null)
      return broken(firstUnsealed, 'An event without a seal lies before sealed events: it was inserted.');
    const seq = result.events + 1;
    const chain = Buffer.from(stored.chain, 'hex');
    const checked = {
      seq: stored.seq,
      position: line.position,
      chain,
      signature: Buffer.from(stored.signature, 'base64'),
    };
    const mismatch = describeMismatch(line, { ...stored, seq: stored.seq }, seq);
    if (mismatch) return brokenInWindow([...window, checked], key, line.position, mismatch, broken);
    previous = chainHash(
      previous,
      eventHash(stored.head, stored.data ? sha256Hex(stored.data) : stored.dataSha256),
    );
    if (!previous.equals(chain))
      return brokenInWindow(
        [...window, checked],
        key,
        line.position,
        'The event does not match its seal: it was changed, or events before it were swapped.',
        broken,
      );
    window.push(checked);
    result.events = seq;
    result.headHash = stored.chain;
    lastPosition = line.position;
    seen.add(line.position);
    const checkpoint = signed.get(line.position);
    if (checkpoint) {
      if (checkpoint.headHash !== stored.chain)
        return brokenInWindow(
          window,
          key,
          window[0].position,
          `The history up to position ${line.position} differs from its signed checkpoint.`,
          broken,
        );
      result.checkpointsMatched++;
      window = [];
    }
  }
  // Past the last checkpoint only the seals' signatures vouch for the events.
  const forged = window.find((seal) => !sealSignatureHolds(key, seal));
  if (forged) return broken(forged.position, 'Its seal is not signed by the key: the seal was rewritten.');
  const beyond = checkpoints.filter(
    (checkpoint) => signed.has(checkpoint.position) && !seen.has(checkpoint.position),
  );
  if (beyond.length) {
    result.missing = { after: lastPosition, through: beyond[beyond.length - 1].position };
    return broken(
      beyond[0].position,
      `Events after position ${lastPosition ?? '(none)'} up to position ${result.missing.through} are missing: a signed checkpoint reached them.`,
    );
  }
  result.unsealed = unsealed;
  if (badCheckpoints.length) {
    result.ok = false;
    result.reason = `The signature of the checkpoint at position ${badCheckpoints[0]} does not hold.`;
  }
  return result;
}

/** Why a line cannot be the next seal of the chain, before any hashing; else null. */
function describeMismatch(line: ExportLine, stored: StoredRow & { seq: number }, seq: number): string | null {
  if (stored.seq > seq) return `Seal ${seq} is missing before this event: an event was deleted.`;
  if (stored.seq < seq) return 'This seal appears twice or out of order: events were moved or inserted.';
  const [position, stream, version, type] = stored.head.split('\n', 4);
  if (
    position !== line.position ||
    stream !== JSON.stringify(line.streamId) ||
    version !== String(line.version) ||
    type !== JSON.stringify(line.type)
  )
    return 'The export line does not match the stored row it carries.';
  if (stored.data !== undefined && sha256Hex(stored.data) !== stored.dataSha256)
    return 'The stored data does not match its hash.';
  return null;
}

function sealSignatureHolds(key: KeyObject, seal: Checked): boolean {
  return signatureHolds(key, sealMessage(seal.seq, seal.position, seal.chain), seal.signature);
}

/**
 * A break found at `position`: the first seal since the last checkpoint met whose signature does
 * not hold is where the history was rewritten (its event and seal together); else `position`.
 */
function brokenInWindow(
  window: Checked[],
  key: KeyObject,
  position: string,
  reason: string,
  broken: (position: string, reason: string) => OfflineResult,
): OfflineResult {
  const forged = window.find((seal) => !sealSignatureHolds(key, seal));
  if (forged && forged.position !== position)
    return broken(
      forged.position,
      'Its seal is not signed by the key: the event and its seal were rewritten.',
    );
  if (forged) return broken(position, `${reason} Its seal is not signed by the key.`);
  return broken(position, reason);
}
