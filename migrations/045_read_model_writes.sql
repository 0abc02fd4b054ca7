-- The command path writes case_view with one fixed statement per flush (event-store/append.ts).
-- A note changes only columns no index reads (version, note_count, notes_text_length,
-- last_position) and leaves the document as it was, so its update can stay on the row's page
-- without new index entries (a HOT update) — once last_position has no index. Its only reader
-- was the case list's periodic shape check (max(last_position)), which now takes the log's last
-- position instead (backend/src/cases/case-list-cache.ts). Room on each page for the new versions,
-- and small versions: a case's document (a kilobyte or two once compressed) goes to the TOAST
-- table rather than staying in the row, so the row's new version fits beside the old one, and a
-- version that keeps the document keeps its TOAST pointer (no copy of the document in the WAL).
DROP INDEX IF EXISTS case_view_last_position;
ALTER TABLE case_view SET (fillfactor = 90, toast_tuple_target = 128);

-- report_cases.stage_ms plus the stage times `added` (both as stage_ms: milliseconds per slot,
-- NULL where none): a command's row brings what its events added, and the stored row keeps the sum.
CREATE FUNCTION report_stage_sum(base bigint[], added bigint[]) RETURNS bigint[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN added IS NULL THEN base WHEN base IS NULL THEN added ELSE
    (SELECT array_agg(CASE WHEN base[i] IS NULL AND added[i] IS NULL THEN NULL
                           ELSE coalesce(base[i], 0) + coalesce(added[i], 0) END ORDER BY i)
       FROM generate_series(1, greatest(coalesce(array_length(base, 1), 0),
                                        coalesce(array_length(added, 1), 0))) AS i) END
$$;
