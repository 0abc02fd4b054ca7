-- GET /invoices keeps every invoice's text in each API process and reads only what changed since
-- its last read (backend/src/billing/invoice-texts.ts). Every write of an invoice_view row draws
-- a change position from one sequence; a row that leaves the table leaves its number behind in
-- invoice_view_removed with a position of its own. So "what changed since position p" is one
-- index range over each table.
--
-- Positions are drawn before their transaction commits, so they may become visible out of order.
-- The writer's transaction id is taken before the position is drawn: any position drawn before a
-- reader notes the sequence's last value belongs to a transaction whose id is lower than an id
-- assigned after that note, which is what lets the reader tell when no such position can still
-- appear (invoice_view_horizon below, and invoice-texts.ts).
CREATE SEQUENCE invoice_view_position AS bigint;

ALTER TABLE invoice_view ADD COLUMN changed_at_position bigint NOT NULL DEFAULT 0;
UPDATE invoice_view SET changed_at_position = nextval('invoice_view_position');
ALTER TABLE invoice_view ALTER COLUMN changed_at_position DROP DEFAULT;
CREATE INDEX invoice_view_changed ON invoice_view (changed_at_position);

CREATE TABLE invoice_view_removed (
  number text PRIMARY KEY,
  changed_at_position bigint NOT NULL
);
CREATE INDEX invoice_view_removed_changed ON invoice_view_removed (changed_at_position);

CREATE FUNCTION invoice_view_position_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_current_xact_id();
  NEW.changed_at_position := nextval('invoice_view_position');
  RETURN NEW;
END $$;

CREATE TRIGGER invoice_view_position_stamp BEFORE INSERT OR UPDATE ON invoice_view
  FOR EACH ROW EXECUTE FUNCTION invoice_view_position_stamp();

CREATE FUNCTION invoice_view_position_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_current_xact_id();
  IF TG_OP = 'TRUNCATE' THEN
    INSERT INTO invoice_view_removed (number, changed_at_position)
      SELECT number, nextval('invoice_view_position') FROM invoice_view
      ON CONFLICT (number) DO UPDATE SET changed_at_position = excluded.changed_at_position;
    RETURN NULL;
  END IF;
  INSERT INTO invoice_view_removed (number, changed_at_position)
    VALUES (OLD.number, nextval('invoice_view_position'))
    ON CONFLICT (number) DO UPDATE SET changed_at_position = excluded.changed_at_position;
  RETURN OLD;
END $$;

CREATE TRIGGER invoice_view_position_removed AFTER DELETE ON invoice_view
  FOR EACH ROW EXECUTE FUNCTION invoice_view_position_removed();
CREATE TRIGGER invoice_view_position_truncated BEFORE TRUNCATE ON invoice_view
  FOR EACH STATEMENT EXECUTE FUNCTION invoice_view_position_removed();

-- For a reader, in this order: the last position drawn so far, then a transaction id assigned
-- after it (this call's own). Once a snapshot's xmin has passed `bound`, every transaction that
-- drew a position up to `drawn` has ended, so every such row it sees is final.
CREATE FUNCTION invoice_view_horizon(OUT drawn bigint, OUT bound text) LANGUAGE plpgsql AS $$
BEGIN
  SELECT CASE WHEN is_called THEN last_value ELSE 0 END INTO drawn FROM invoice_view_position;
  bound := pg_current_xact_id()::text;
END $$;
