-- Second factors (api.md Accounts). Kept in tables, not in the event log: secrets must not enter
-- the immutable log or its backups, and every API process must agree on them.

-- An authenticator app: the secret encrypted with the key in DATA_DIR (auth/mfa/secret-box.ts);
-- `pending_secret` is one being set up, active once a code from it is confirmed. `last_step` is
-- the time step of the last accepted code: a code is accepted only for a later step (no replay).
CREATE TABLE mfa_totp (
  username_key text PRIMARY KEY,
  secret text,
  pending_secret text,
  last_step bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Single-use recovery codes: only their hashes.
CREATE TABLE mfa_recovery_codes (
  username_key text NOT NULL,
  code_hash text NOT NULL,
  PRIMARY KEY (username_key, code_hash)
);

-- Passkeys (WebAuthn credentials): the credential id (base64url), its public key and signature
-- counter.
CREATE TABLE passkeys (
  id text PRIMARY KEY,
  username_key text NOT NULL,
  name text NOT NULL,
  public_key bytea NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX passkeys_user ON passkeys (username_key);

-- The second step of a sign-in: the token's hash, whose password it follows, how many wrong codes
-- it had, and the WebAuthn challenge of a passkey asked for as that step.
CREATE TABLE mfa_tokens (
  token_hash text PRIMARY KEY,
  username_key text NOT NULL,
  remember boolean NOT NULL,
  expires_at timestamptz NOT NULL,
  failures integer NOT NULL DEFAULT 0,
  challenge text
);
CREATE INDEX mfa_tokens_expiry ON mfa_tokens (expires_at);

-- WebAuthn challenges handed out and not yet used: registering a passkey (username set), signing
-- in with a passkey alone (no username), confirming it is you (username set). Used once.
CREATE TABLE webauthn_challenges (
  challenge text PRIMARY KEY,
  purpose text NOT NULL,
  username_key text,
  expires_at timestamptz NOT NULL
);
