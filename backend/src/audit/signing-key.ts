import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The file DATA_DIR holds the key in when AUDIT_SIGNING_KEY is not set. */
export const GENERATED_KEY_FILE = 'audit-signing-key.pem';

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** SPKI PEM, as `GET /audit/public-key` gives it. */
  publicPem: string;
}

/**
 * The Ed25519 key the seals and checkpoints are signed with, kept outside the database: the PEM
 * file named by AUDIT_SIGNING_KEY, else DATA_DIR/audit-signing-key.pem, created on first use
 * (mode 0600; `wx`, so two processes starting together keep the first one written).
 */
export function loadSigningKey(settings: { auditSigningKey?: string; dataDir: string }): SigningKey {
  const file = settings.auditSigningKey ?? path.join(settings.dataDir, GENERATED_KEY_FILE);
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || settings.auditSigningKey)
      throw new Error(`AUDIT_SIGNING_KEY: cannot read ${file}: ${(error as Error).message}`, {
        cause: error,
      });
    pem = generatedKey(file);
  }
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw new Error(`AUDIT_SIGNING_KEY: ${file} must hold an Ed25519 private key (PEM)`);
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

function generatedKey(file: string): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
    return pem;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readFileSync(file, 'utf8');
  }
}

/** The provider token of the process's SigningKey. */
export const AUDIT_KEY = Symbol('AUDIT_KEY');
