import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import webpush from 'web-push';
import { NOTIFICATIONS_CONFIG, type NotificationsConfig } from '../config/notifications.config.js';

export interface VapidDetails {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export const VAPID_FILE = 'vapid.json';

/**
 * The VAPID key pair: from the environment, else generated once and kept in `${DATA_DIR}/vapid.json`.
 * The API (which hands out the public key) and the workers (which sign with the private key) must
 * agree, so every process reads the same file; the first to need it creates it atomically (a
 * hard link of a finished temporary file), and a process that loses that race reads the winner's.
 * Loaded lazily: a process that never pushes never writes the file.
 */
@Injectable()
export class VapidKeys {
  private loading?: Promise<VapidDetails>;

  constructor(@Inject(NOTIFICATIONS_CONFIG) private readonly config: NotificationsConfig) {}

  get(): Promise<VapidDetails> {
    this.loading ??= this.load().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  private async load(): Promise<VapidDetails> {
    const subject = this.config.vapidSubject;
    if (this.config.vapidKeys) return { ...this.config.vapidKeys, subject };
    return { ...(await loadOrCreateKeyFile(this.config.dataDir)), subject };
  }
}

export async function loadOrCreateKeyFile(
  dataDir: string,
): Promise<{ publicKey: string; privateKey: string }> {
  const file = join(dataDir, VAPID_FILE);
  const existing = await readKeyFile(file);
  if (existing) return existing;
  await mkdir(dataDir, { recursive: true });
  const keys = webpush.generateVAPIDKeys();
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, JSON.stringify({ ...keys, createdAt: new Date().toISOString() }, null, 2), {
    mode: 0o600,
  });
  try {
    await link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  const stored = await readKeyFile(file);
  if (!stored) throw new Error(`${file} does not hold a VAPID key pair`);
  return stored;
}

async function readKeyFile(file: string): Promise<{ publicKey: string; privateKey: string } | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = JSON.parse(text) as { publicKey?: unknown; privateKey?: unknown };
  if (typeof parsed.publicKey !== 'string' || typeof parsed.privateKey !== 'string')
    throw new Error(`${file} does not hold a VAPID key pair; delete it to generate a new one`);
  return { publicKey: parsed.publicKey, privateKey: parsed.privateKey };
}
