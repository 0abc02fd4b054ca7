-- Replaces the function of 003_live_notify.sql: a statement whose writer wakes the listeners
-- itself after commit sets alignerflow.notify_by_caller for its transaction, and the trigger then
-- stays quiet. Why: PostgreSQL commits every transaction that has a NOTIFY under one cluster-wide
-- lock held through its WAL flush, so a NOTIFY in each command's commit capped the whole server at
-- a few hundred commits per second. The case commands' writer (ListenerWakeups in
-- backend/src/event-store/event-store.ts) sends one coalesced NOTIFY for many commits instead.
-- Every other writer (users, imports, restores, psql) still notifies from here, as before.
CREATE OR REPLACE FUNCTION events_notify_appended() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('alignerflow.notify_by_caller', true) IS DISTINCT FROM 'on' THEN
    PERFORM pg_notify('events_appended', '');
  END IF;
  RETURN NULL;
END;
$$;
