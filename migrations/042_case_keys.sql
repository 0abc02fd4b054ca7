-- Patient data at rest (backend/src/patient-data/README.md). Each case's patient-identifying
-- event fields are encrypted under a data key of its own, stored here wrapped by the master key
-- (MASTER_KEY_FILE, never in the database). Erasing a case deletes its row.
CREATE TABLE case_keys (
  case_id       text        PRIMARY KEY,
  -- base64 of iv (12 bytes) || AES-256-GCM ciphertext of the 32-byte key || tag (16 bytes).
  wrapped_key   text        NOT NULL,
  -- The first 16 hex digits of sha256(master key): which master key wraps it (rotation).
  master_key_id text        NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);

-- One-off steps of the application that run after the migrations, before it serves (the
-- encryption of events stored in plaintext by earlier versions): each recorded once done.
CREATE TABLE data_steps (
  name   text        PRIMARY KEY,
  ran_at timestamptz NOT NULL DEFAULT now(),
  detail jsonb       NOT NULL DEFAULT '{}'
);

-- The lab's retention rule: cases completed more than this many years ago are erased by the
-- daily job (null: never). One row.
CREATE TABLE retention_settings (
  id                boolean PRIMARY KEY DEFAULT true CHECK (id),
  erase_after_years int     CHECK (erase_after_years BETWEEN 1 AND 30),
  updated_at        timestamptz,
  updated_by        text
);
INSERT INTO retention_settings (id) VALUES (true);
