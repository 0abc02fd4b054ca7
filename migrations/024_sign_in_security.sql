-- Sessions a user can see and end one by one, and the proof a step-up call asks for.
--   id: the public name of a session (the token hash never leaves the server);
--   address, user_agent: where the sign-in came from, as the user's session list shows it;
--   proved_at: when the session last proved its user (the sign-in itself, or POST /auth/reauth);
--     a step-up call needs it within the last 10 minutes;
--   mfa_setup_only: the session of a user whose role must have a second factor and has none yet:
--     it reaches only /auth/* and GET /config until a factor is active.
ALTER TABLE sessions
  ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid(),
  ADD COLUMN address text,
  ADD COLUMN user_agent text,
  ADD COLUMN proved_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN mfa_setup_only boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX sessions_id ON sessions (id);

-- Browsers that signed a user in before (the af_device cookie): only a hash of the cookie's random
-- token is kept. Such a browser is not refused by the per-username sign-in limit, and a sign-in
-- from any other browser emails the user.
CREATE TABLE known_devices (
  token_hash text PRIMARY KEY,
  username_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX known_devices_user ON known_devices (username_key);
CREATE INDEX known_devices_expiry ON known_devices (expires_at);
