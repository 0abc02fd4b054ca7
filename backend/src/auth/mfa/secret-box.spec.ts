import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../../config/config';
import { SecretBox } from './secret-box';

describe('SecretBox: authenticator secrets sealed with a key in DATA_DIR', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'af-box-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
  const box = () => new SecretBox({ dataDir } as AppConfig);

  it('seals so that the stored text shows nothing, and any process on the same DATA_DIR opens it', async () => {
    const [first, second] = [box(), box()];
    const [a, b] = await Promise.all([first.seal('JBSWY3DPEHPK3PXP'), second.seal('JBSWY3DPEHPK3PXP')]);
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(a).not.toBe(b); // a fresh IV each time
    expect(await box().open(a)).toBe('JBSWY3DPEHPK3PXP');
    expect(await first.open(b)).toBe('JBSWY3DPEHPK3PXP');
    const key = join(dataDir, 'mfa-secret.key');
    expect(Buffer.from(readFileSync(key, 'utf8'), 'base64')).toHaveLength(32);
    expect(statSync(key).mode & 0o777).toBe(0o600);
  });

  it('refuses a sealed text that was changed, or one of another key', async () => {
    const sealed = await box().seal('JBSWY3DPEHPK3PXP');
    const bytes = Buffer.from(sealed.slice(3), 'base64');
    bytes[bytes.length - 1] ^= 1;
    await expect(box().open(`v1:${bytes.toString('base64')}`)).rejects.toThrow();
    const elsewhere = mkdtempSync(join(tmpdir(), 'af-box-'));
    try {
      await expect(new SecretBox({ dataDir: elsewhere } as AppConfig).open(sealed)).rejects.toThrow();
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
