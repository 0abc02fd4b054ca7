-- Event documents of more than ~2 kB (a restore's CaseImported carries the whole case) are
-- compressed as they are appended. lz4 compresses several times faster than the default pglz at a
-- similar ratio: a third less PostgreSQL time for a restore's bulk append. New values only;
-- existing rows keep their compression. Readers are unaffected. A server built without lz4 keeps
-- pglz: everything works the same, a little slower.
DO $$
BEGIN
  ALTER TABLE events ALTER COLUMN data SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available on this server; events.data stays compressed with pglz';
END;
$$;
