-- Event store: the append-only log every projection is built from.
-- Runs inside one transaction (see backend/src/database/migrations.ts).

CREATE TABLE events (
  global_position bigserial PRIMARY KEY,
  stream_id       text        NOT NULL,
  stream_version  int         NOT NULL CHECK (stream_version > 0),
  type            text        NOT NULL,
  schema_version  int         NOT NULL DEFAULT 1 CHECK (schema_version > 0),
  data            jsonb       NOT NULL,
  metadata        jsonb       NOT NULL DEFAULT '{}',
  recorded_at     timestamptz NOT NULL DEFAULT now(),
  -- Readers only trust rows whose writing transaction is older than every running one
  -- (pg_snapshot_xmin), so a slow transaction with a lower global_position is never skipped.
  transaction_id  xid8        NOT NULL DEFAULT pg_current_xact_id(),
  -- Named explicitly: the event store maps a violation of this constraint to a concurrency error.
  CONSTRAINT events_stream_version_key UNIQUE (stream_id, stream_version)
);

-- Serves readAll's "(transaction_id, global_position) > checkpoint ORDER BY ..." as a range scan.
CREATE INDEX events_transaction_position_idx ON events (transaction_id, global_position);

-- Past events are facts: corrections are new events, old shapes are upcast when read.
CREATE FUNCTION events_reject_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'events are append-only' USING HINT = 'Append a compensating event instead.';
END;
$$;

CREATE TRIGGER events_no_update_or_delete
  BEFORE UPDATE OR DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION events_reject_change();

-- Row triggers do not fire for TRUNCATE.
CREATE TRIGGER events_no_truncate
  BEFORE TRUNCATE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION events_reject_change();

-- Where each projection stopped reading; saved in the same transaction as the projection's
-- own writes so a crash never applies an event twice or loses one.
CREATE TABLE projection_checkpoints (
  name            text        PRIMARY KEY,
  transaction_id  xid8        NOT NULL,
  global_position bigint      NOT NULL,
  updated_at      timestamptz NOT NULL DEFAULT now()
);
