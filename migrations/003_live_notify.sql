-- Wakes the live-stream tailers of every API instance when events are appended.
-- Statement-level, payload-free: one cheap notification per INSERT statement (PostgreSQL folds
-- identical notifications of one transaction into one and delivers them only at commit). The
-- listeners read what is new from the log itself, in commit-safe order, so a lost or folded
-- notification only delays them until their fallback poll.
CREATE FUNCTION events_notify_appended() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('events_appended', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER events_notify_appended
  AFTER INSERT ON events
  FOR EACH STATEMENT EXECUTE FUNCTION events_notify_appended();
