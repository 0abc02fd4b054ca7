-- GET /invoices keeps every invoice's text in each API process and reads only what changed since
-- its last read (backend/src/billing/invoice-texts.ts). Every write of an invoice_view row
-- (insert, update, delete, truncate) sets the number's changed_at_position to a new value of one
-- sequence, so "what changed since position p" is one index range; a number whose row is gone
-- was removed. The positions live beside invoice_view rather than in it: the table stays what a
-- replay of the log rebuilds, column for column (test/seed.e2e.ts compares them).
--
-- Positions are drawn before their transaction commits, so they may become visible out of order.
-- The writer's transaction id is taken before the position is drawn: any position drawn before a
-- reader notes the sequence's last value belongs to a transaction whose id is lower than an id
-- assigned after that note, which is what lets the reader tell when no such position can still
-- appear (invoice_view_horizon below, and invoice-texts.ts).
CREATE SEQUENCE invoice_view_position AS bigint;

CREATE TABLE invoice_view_changes (
  number text PRIMARY KEY,
  changed_at_position bigint NOT NULL
);
INSERT INTO invoice_view_changes (number, changed_at_position)
  SELECT number, nextval('invoice_view_position') FROM invoice_view;
CREATE INDEX invoice_view_changes_position ON invoice_view_changes (changed_at_position);

CREATE FUNCTION invoice_view_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_current_xact_id();
  IF TG_OP = 'TRUNCATE' THEN
    INSERT INTO invoice_view_changes (number, changed_at_position)
      SELECT number, nextval('invoice_view_position') FROM invoice_view
      ON CONFLICT (number) DO UPDATE SET changed_at_position = excluded.changed_at_position;
    RETURN NULL;
  END IF;
  INSERT INTO invoice_view_changes (number, changed_at_position)
    VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.number ELSE NEW.number END, nextval('invoice_view_position'))
    ON CONFLICT (number) DO UPDATE SET changed_at_position = excluded.changed_at_position;
  -- A renumbered row (an update of its number) leaves its old number removed.
  IF TG_OP = 'UPDATE' AND OLD.number <> NEW.number THEN
    INSERT INTO invoice_view_changes (number, changed_at_position)
      VALUES (OLD.number, nextval('invoice_view_position'))
      ON CONFLICT (number) DO UPDATE SET changed_at_position = excluded.changed_at_position;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER invoice_view_changed AFTER INSERT OR UPDATE OR DELETE ON invoice_view
  FOR EACH ROW EXECUTE FUNCTION invoice_view_changed();
CREATE TRIGGER invoice_view_truncated BEFORE TRUNCATE ON invoice_view
  FOR EACH STATEMENT EXECUTE FUNCTION invoice_view_changed();

-- For a reader, in this order: the last position drawn so far, then a transaction id assigned
-- after it (this call's own). Once a snapshot's xmin has passed `bound`, every transaction that
-- drew a position up to `drawn` has ended, so every such row it sees is final.
CREATE FUNCTION invoice_view_horizon(OUT drawn bigint, OUT bound text) LANGUAGE plpgsql AS $$
BEGIN
  SELECT CASE WHEN is_called THEN last_value ELSE 0 END INTO drawn FROM invoice_view_position;
  bound := pg_current_xact_id()::text;
END $$;
