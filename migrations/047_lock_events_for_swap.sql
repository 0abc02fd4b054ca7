-- The rebuild's swap waits for every transaction appending events and holds new appends back
-- (LOCK events IN SHARE MODE, rebuild/projection-rebuilder.ts). PostgreSQL lets only a role that
-- may UPDATE, DELETE or TRUNCATE a table lock it that strongly, and the app's role may do none of
-- that to events (database/app-role.ts): this function takes the lock as the schema's owner. The
-- lock lasts until the caller's transaction ends, like the LOCK statement's.
CREATE FUNCTION lock_events_for_swap() RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
  LOCK TABLE public.events IN SHARE MODE;
END;
$$;
