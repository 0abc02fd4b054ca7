import { isoCBOR } from '@simplewebauthn/server/helpers';
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software authenticator for tests: real ES256 keys, real authenticator data and signatures
 * (attestation "none"), so the server verifies what a browser's passkey would send. It always
 * reports user presence and user verification.
 */
interface StoredKey {
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | Buffer | string) => createHash('sha256').update(data).digest();

function counterBytes(counter: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter);
  return bytes;
}

export class VirtualAuthenticator {
  readonly keys = new Map<string, StoredKey>();

  /** `origin` as the browser would report it (PUBLIC_URL's origin), `rpId` its host name. */
  constructor(
    readonly origin: string,
    readonly rpId: string,
  ) {}

  /** navigator.credentials.create() for the server's registration options: a RegistrationResponseJSON. */
  register(options: { challenge: string; user: { id: string } }) {
    const credentialId = randomBytes(16);
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cosePublicKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      sha256(this.rpId),
      Buffer.from([UP | UV | AT]),
      counterBytes(0),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      credentialId,
      Buffer.from(cosePublicKey),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.create',
      challenge: options.challenge,
      origin: this.origin,
      crossOrigin: false,
    });
    const id = b64url(credentialId);
    this.keys.set(id, { privateKey, userHandle: options.user.id, counter: 0 });
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(Buffer.from(clientDataJSON)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /**
   * navigator.credentials.get() for the server's authentication options: signed by the passkey
   * `id` (default: the first allowed one, else the first this authenticator holds).
   */
  assert(
    options: { challenge: string; allowCredentials?: { id: string }[] },
    id?: string,
    origin = this.origin,
  ) {
    const chosen = id ?? options.allowCredentials?.[0]?.id ?? [...this.keys.keys()][0];
    const key = this.keys.get(chosen);
    if (!key) throw new Error(`No passkey ${chosen} in this authenticator`);
    key.counter += 1;
    const authenticatorData = Buffer.concat([
      sha256(this.rpId),
      Buffer.from([UP | UV]),
      counterBytes(key.counter),
    ]);
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }),
    );
    const signature = sign(
      'sha256',
      Buffer.concat([authenticatorData, sha256(clientDataJSON)]),
      key.privateKey,
    );
    return {
      id: chosen,
      rawId: chosen,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        userHandle: key.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
