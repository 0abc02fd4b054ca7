import { Inject, Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';

const KEY_FILE = 'mfa-secret.key';
const PREFIX = 'v1:';

/**
 * Encrypts authenticator secrets at rest (AES-256-GCM) with a key kept in DATA_DIR, beside the
 * VAPID keys and uploads, never in the database: a copy of the database alone (a dump, a
 * replica) does not let anyone compute a user's codes. Created once, atomically, by whichever
 * process needs it first; every process of a deployment shares DATA_DIR.
 */
@Injectable()
export class SecretBox {
  private key?: Promise<Buffer>;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async seal(plain: string): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', await this.keyBytes(), iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
  }

  async open(stored: string): Promise<string> {
    if (!stored.startsWith(PREFIX)) throw new Error('Not a sealed secret');
    const bytes = Buffer.from(stored.slice(PREFIX.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', await this.keyBytes(), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  }

  private keyBytes(): Promise<Buffer> {
    this.key ??= loadOrCreateKey(this.config.dataDir).catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return this.key;
  }
}

async function loadOrCreateKey(dataDir: string): Promise<Buffer> {
  const file = join(dataDir, KEY_FILE);
  const existing = await readKey(file);
  if (existing) return existing;
  await mkdir(dataDir, { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, randomBytes(32).toString('base64'), { mode: 0o600 });
  try {
    // link() fails when another process made the file first: theirs is the key.
    await link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  const stored = await readKey(file);
  if (!stored) throw new Error(`${file} does not hold a key`);
  return stored;
}

async function readKey(file: string): Promise<Buffer | undefined> {
  try {
    const key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
