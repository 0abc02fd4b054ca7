import { randomFillSync } from 'node:crypto';

/** IVs drawn per refill: one call into the random generator instead of one per encryption. */
const POOL_IVS = 1024;
const IV_BYTES = 12;

let pool = Buffer.alloc(0);
let next = 0;

/**
 * A fresh random 96-bit IV for one AES-GCM encryption, copied out of a block of the system's
 * CSPRNG output: each IV is used once and never handed out again, as with randomBytes(12), but
 * the generator is asked once per POOL_IVS IVs. OpenSSL's RAND_bytes costs about as much per
 * call as the whole encryption of a short value (docs/performance.md, "Patient data encryption").
 */
export function freshIv(): Buffer {
  if (next + IV_BYTES > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafeSlow(POOL_IVS * IV_BYTES));
    next = 0;
  }
  const iv = Buffer.allocUnsafe(IV_BYTES);
  pool.copy(iv, 0, next, next + IV_BYTES);
  next += IV_BYTES;
  return iv;
}
