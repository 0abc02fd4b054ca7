-- Back to the trigger of 003_live_notify.sql: every statement that appends notifies at its
-- commit. 007 let the case commands' writer stay quiet and send coalesced NOTIFYs itself, because
-- one NOTIFY per command serialised every commit on PostgreSQL's notify lock; with group commit
-- one statement carries every command of a flush, so its one NOTIFY costs that flush nothing more
-- (measured in docs/performance.md), and the second path is gone.
CREATE OR REPLACE FUNCTION events_notify_appended() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('events_appended', '');
  RETURN NULL;
END;
$$;
