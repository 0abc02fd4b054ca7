import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GENERATED_KEY_FILE, loadSigningKey } from './signing-key';

describe('loadSigningKey', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'af-key-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('generates an Ed25519 key into DATA_DIR once (mode 0600) and reads the same one afterwards', () => {
    const first = loadSigningKey({ dataDir: dir });
    const file = join(dir, GENERATED_KEY_FILE);
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
    const second = loadSigningKey({ dataDir: dir });
    expect(second.publicPem).toBe(first.publicPem);
    const message = Buffer.from('a seal');
    expect(verify(null, message, second.publicKey, sign(null, message, first.privateKey))).toBe(true);
  });

  it('uses AUDIT_SIGNING_KEY when set, and refuses a missing file or another kind of key', () => {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const path = join(dir, 'audit.pem');
    writeFileSync(path, pem);
    const key = loadSigningKey({ dataDir: dir, auditSigningKey: path });
    expect(key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()).toBe(
      readFileSync(path, 'utf8'),
    );
    expect(() => loadSigningKey({ dataDir: dir, auditSigningKey: join(dir, 'none.pem') })).toThrow(
      /AUDIT_SIGNING_KEY: cannot read/,
    );
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    writeFileSync(path, rsa.export({ type: 'pkcs8', format: 'pem' }).toString());
    expect(() => loadSigningKey({ dataDir: dir, auditSigningKey: path })).toThrow(
      /must hold an Ed25519 private key/,
    );
  });
});
