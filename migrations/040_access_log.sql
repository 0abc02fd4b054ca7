-- The access log (backend/src/access-log/README.md): who read or exported a case's data, kept
-- apart from the events (a read is no change of the case, and a replay or backup of the log does
-- not carry it). Each entry is sealed into its own hash chain by the application: chain_hash =
-- sha256(previous chain_hash || sha256(the entry's JSON text)), 32 zero bytes before seq 1.
CREATE TABLE access_log (
  seq        bigint      PRIMARY KEY CHECK (seq > 0),
  at         timestamptz NOT NULL,
  username   text        NOT NULL,
  role       text        NOT NULL,
  action     text        NOT NULL CHECK (action IN ('view', 'download', 'print', 'export')),
  detail     text        NOT NULL,
  address    text        NOT NULL,
  -- null for exports, which name what they exported in detail.
  case_id    text,
  chain_hash bytea       NOT NULL CHECK (octet_length(chain_hash) = 32)
);

CREATE INDEX access_log_case_idx ON access_log (case_id, seq) WHERE case_id IS NOT NULL;
CREATE INDEX access_log_at_idx ON access_log (at);
CREATE INDEX access_log_username_idx ON access_log (lower(username), seq);

-- Entries are written once, like the seals of the events.
CREATE FUNCTION access_log_reject_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the access log is append-only';
END;
$$;

CREATE TRIGGER access_log_no_update_or_delete
  BEFORE UPDATE OR DELETE ON access_log
  FOR EACH ROW EXECUTE FUNCTION access_log_reject_change();

CREATE TRIGGER access_log_no_truncate
  BEFORE TRUNCATE ON access_log
  FOR EACH STATEMENT EXECUTE FUNCTION access_log_reject_change();
