-- Signed history (backend/src/audit/README.md). The seals of 012 were computed by PostgreSQL; these
-- are computed by the application from each stored row and signed with a key kept outside the
-- database, so someone who can rewrite rows here cannot forge them. The chain starts again from
-- seq 1 over the rows as they are after every migration and start-up step; audit_seals stays,
-- for the record, and is no longer written or checked.
CREATE TABLE audit_chain (
  seq             bigint      PRIMARY KEY CHECK (seq > 0),
  global_position bigint      NOT NULL UNIQUE,
  transaction_id  xid8        NOT NULL,
  -- Copied from the event so that one case's seals are found without reading the chain.
  stream_id       text        NOT NULL,
  -- sha256(chain_hash of seq - 1, or 32 zero bytes for seq 1 || sha256 of the row's canonical text).
  chain_hash      bytea       NOT NULL CHECK (octet_length(chain_hash) = 32),
  -- Ed25519 over the seal (audit-chain.ts, sealMessage): pins this seal, hence its event.
  signature       bytea       NOT NULL CHECK (octet_length(signature) = 64),
  sealed_at       timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX audit_chain_stream_idx ON audit_chain (stream_id);

-- Signed heads of the chain, at least every 1,000 seals and every 10 minutes: an auditor keeps
-- them outside the database, and the newest one says how far the history reached.
CREATE TABLE audit_checkpoints (
  seq             bigint      PRIMARY KEY REFERENCES audit_chain (seq),
  global_position bigint      NOT NULL,
  head_hash       bytea       NOT NULL CHECK (octet_length(head_hash) = 32),
  at              timestamptz NOT NULL,
  signature       bytea       NOT NULL CHECK (octet_length(signature) = 64)
);

CREATE TRIGGER audit_chain_no_update_or_delete
  BEFORE UPDATE OR DELETE ON audit_chain
  FOR EACH ROW EXECUTE FUNCTION audit_seals_reject_change();

CREATE TRIGGER audit_chain_no_truncate
  BEFORE TRUNCATE ON audit_chain
  FOR EACH STATEMENT EXECUTE FUNCTION audit_seals_reject_change();

CREATE TRIGGER audit_checkpoints_no_update_or_delete
  BEFORE UPDATE OR DELETE ON audit_checkpoints
  FOR EACH ROW EXECUTE FUNCTION audit_seals_reject_change();

CREATE TRIGGER audit_checkpoints_no_truncate
  BEFORE TRUNCATE ON audit_checkpoints
  FOR EACH STATEMENT EXECUTE FUNCTION audit_seals_reject_change();
