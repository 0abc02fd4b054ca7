-- Read models built by projections. They can always be rebuilt from the events table.

-- Case list and detail: the Case as the API shows it, plus columns the reads filter and count on.
CREATE TABLE case_view (
  id text PRIMARY KEY,
  data jsonb NOT NULL,
  status text NOT NULL,
  assigned_doctor text,            -- lower-cased username, for a doctor's own list
  on_hold boolean NOT NULL,
  delivery_date date,
  status_entered_at timestamptz NOT NULL,
  created_date timestamptz NOT NULL,
  version int NOT NULL,
  deleted boolean NOT NULL DEFAULT false,
  last_position bigint NOT NULL    -- global position of the last event applied: ETags come from it
);
CREATE INDEX case_view_doctor ON case_view (assigned_doctor) WHERE NOT deleted;
CREATE INDEX case_view_status ON case_view (status) WHERE NOT deleted;
CREATE INDEX case_view_last_position ON case_view (last_position);

-- Every case id ever handed out, so none is reused, deleted or not.
CREATE TABLE case_ids (
  id text PRIMARY KEY,
  year int NOT NULL,
  suffix int NOT NULL
);
CREATE INDEX case_ids_year ON case_ids (year);

CREATE TABLE user_view (
  username_key text PRIMARY KEY,   -- lower-cased: usernames are unique case-insensitively
  username text NOT NULL,
  role text NOT NULL,
  email text,
  activation_sound_enabled boolean NOT NULL,
  password_hash text NOT NULL,
  version int NOT NULL,
  deleted boolean NOT NULL DEFAULT false,
  last_position bigint NOT NULL
);
CREATE INDEX user_view_last_position ON user_view (last_position);

-- Sessions are server-side so that logout ends them for cookie and bearer token alike.
CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  username_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user ON sessions (username_key);
