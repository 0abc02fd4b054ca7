import { createHash } from 'node:crypto';
import { hashToken } from './sessions.service';

describe('hashToken', () => {
  it('is the SHA-256 of the token in base64url, the form sessions are stored under', () => {
    // FIPS 180-2's test vector for "abc"; a change of form would end every stored session.
    expect(hashToken('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
    // A token is hashed as its UTF-8 text.
    expect(hashToken('Zoë ✓')).toBe(createHash('sha256').update('Zoë ✓', 'utf8').digest('base64url'));
  });
});
