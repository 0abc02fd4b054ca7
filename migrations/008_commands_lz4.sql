-- A case's row is rewritten whole by every command, and a case with a long history is large
-- enough to be compressed (TOAST) each time. lz4 compresses several times faster than the default
-- pglz at a similar ratio. New values only; existing rows keep their compression until rewritten.
-- A server built without lz4 keeps pglz: everything works the same, a little slower.
DO $$
BEGIN
  ALTER TABLE case_view ALTER COLUMN data SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available on this server; case_view.data stays compressed with pglz';
END;
$$;
