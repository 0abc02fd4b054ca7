-- Tamper evidence (backend/src/audit/README.md): every event gets a seal, in the log's commit-safe
-- order, chained by hash to the seal before it. `seq` numbers the chain from 1; the last seal is
-- also where the sealer resumes (its transaction_id and global_position), so seals and checkpoint
-- can never disagree.
CREATE TABLE audit_seals (
  seq             bigint      PRIMARY KEY CHECK (seq > 0),
  global_position bigint      NOT NULL UNIQUE,
  transaction_id  xid8        NOT NULL,
  -- Copied from the event so that one case's seals are found without reading the chain.
  stream_id       text        NOT NULL,
  -- sha256 of the event's stored fields (audit_event_text below).
  event_hash      bytea       NOT NULL CHECK (octet_length(event_hash) = 32),
  -- sha256(chain_hash of seq - 1, or 32 zero bytes for seq 1 || event_hash).
  chain_hash      bytea       NOT NULL CHECK (octet_length(chain_hash) = 32),
  sealed_at       timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX audit_seals_stream_idx ON audit_seals (stream_id);

-- The text an event's seal hashes: every stored field but transaction_id (the order is the
-- chain's). A JSON array, so no two different events share a text: the strings are JSON-quoted,
-- data and metadata are jsonb printed in their canonical form (sorted keys, fixed spacing), the
-- time is UTC with microseconds; none of it depends on session settings. Plain SQL, STABLE like
-- the casts inside it, so PostgreSQL inlines it into the queries that use it.
CREATE FUNCTION audit_event_text(e events) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT '[' || e.global_position || ',' || to_json(e.stream_id) || ',' || e.stream_version || ','
      || to_json(e.type) || ',' || e.schema_version || ',' || e.data || ',' || e.metadata || ','
      || to_json(e.recorded_at AT TIME ZONE 'UTC') || ']'
$$;

-- Seals are written once, like the events they seal.
CREATE FUNCTION audit_seals_reject_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit seals are append-only';
END;
$$;

CREATE TRIGGER audit_seals_no_update_or_delete
  BEFORE UPDATE OR DELETE ON audit_seals
  FOR EACH ROW EXECUTE FUNCTION audit_seals_reject_change();

CREATE TRIGGER audit_seals_no_truncate
  BEFORE TRUNCATE ON audit_seals
  FOR EACH STATEMENT EXECUTE FUNCTION audit_seals_reject_change();
