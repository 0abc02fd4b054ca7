import { createHash, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The key that wraps every case's data key, and a short id of it stored beside each wrap. */
export interface MasterKey {
  key: Buffer;
  id: string;
}

export function masterKeyFrom(key: Buffer): MasterKey {
  if (key.length !== 32) throw new Error('the master key must be 32 bytes');
  return { key, id: createHash('sha256').update(key).digest('hex').slice(0, 16) };
}

/**
 * The master key in `file`: 32 raw bytes, or 64 hex characters (a key pasted into a secret
 * store). A missing file is created with 32 random bytes, readable by this user alone; a file of
 * any other content stops the start rather than lock away data under a key nobody kept.
 */
export function loadMasterKey(file: string): MasterKey {
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    // Written whole to a file of its own, then linked into place: processes starting together
    // (API replicas and workers sharing DATA_DIR) never read a half-written key, and the first
    // link wins; the others read the winner's.
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(temporary, randomBytes(32), { mode: 0o600, flag: 'wx' });
    try {
      linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(temporary);
    }
  }
  const raw = readFileSync(file);
  const text = raw.toString('utf8').trim();
  if (raw.length === 32) return masterKeyFrom(raw);
  if (/^[0-9a-fA-F]{64}$/.test(text)) return masterKeyFrom(Buffer.from(text, 'hex'));
  throw new Error(`MASTER_KEY_FILE ${file} must hold 32 bytes or 64 hex characters`);
}
