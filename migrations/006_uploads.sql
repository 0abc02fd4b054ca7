-- Uploaded files. The bytes live in the file storage (DATA_DIR/uploads); this table says whose
-- they are: the uploader until the file is attached to a case, then whoever may see that case.
CREATE TABLE uploads (
  id uuid PRIMARY KEY,
  uploader text NOT NULL,          -- lower-cased username
  case_id text,
  kind text NOT NULL,              -- STL or Photo
  name text NOT NULL,
  size_bytes bigint NOT NULL,
  mime text NOT NULL,
  storage_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX uploads_case ON uploads (case_id);
