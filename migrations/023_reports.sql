-- Reports read model, projected from the log with each command's events (and rebuilt by replay
-- like every read model): one row per case with what the reports count, and one row per status a
-- case left, with when it entered and left it.
CREATE TABLE report_cases (
  id text PRIMARY KEY,
  patient text NOT NULL,
  doctor text NOT NULL,
  clinic text NOT NULL,
  created_at timestamptz NOT NULL,
  due_date date,
  status text NOT NULL,
  completed_at timestamptz,          -- when it entered Completed (a terminal status)
  deleted boolean NOT NULL DEFAULT false,
  origin_case_id text,               -- a remake's or refinement's original case
  origin_kind text,                  -- 'remake' | 'refinement'
  origin_reason_code text,
  -- Milliseconds spent in each status of the manufacturing order (REPORT_STAGES, 1-based),
  -- every visit together; NULL where the case never left that status. The sum of its
  -- report_stage_intervals rows, kept here so the summary reads one row per case.
  stage_ms bigint[],
  version int NOT NULL,
  last_position bigint NOT NULL
);
-- The summary and the CSVs read the cases completed in a range.
CREATE INDEX report_cases_completed ON report_cases (completed_at) WHERE completed_at IS NOT NULL AND NOT deleted;
-- Remakes ordered in a range, and the remakes of each completed case.
CREATE INDEX report_cases_remakes ON report_cases (created_at) WHERE origin_kind = 'remake' AND NOT deleted;
CREATE INDEX report_cases_origin ON report_cases (origin_case_id) WHERE origin_case_id IS NOT NULL AND NOT deleted;

-- stage_ms plus the milliseconds `ms` spent in the statuses `slots` (1-based, as stage_ms).
CREATE FUNCTION report_stage_add(base bigint[], slots int[], ms bigint[]) RETURNS bigint[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT array_agg(CASE WHEN base[i] IS NULL AND added.total IS NULL THEN NULL
                        ELSE coalesce(base[i], 0) + coalesce(added.total, 0) END ORDER BY i)
    FROM generate_series(1, greatest(coalesce(array_length(base, 1), 0),
                                     (SELECT max(s) FROM unnest(slots) AS s))) AS i
    LEFT JOIN LATERAL (SELECT sum(x.m)::bigint AS total FROM unnest(slots, ms) AS x(s, m) WHERE x.s = i) added
      ON true
$$;

CREATE TABLE report_stage_intervals (
  case_id text NOT NULL,
  version int NOT NULL,              -- the stream version of the event that left the status
  status text NOT NULL,
  entered_at timestamptz NOT NULL,
  left_at timestamptz NOT NULL,
  PRIMARY KEY (case_id, version)
);

-- Cases that exist already: their rows from case_view (the stage intervals of their past come
-- with the next `npm run replay`, which reads the whole log).
INSERT INTO report_cases (id, patient, doctor, clinic, created_at, due_date, status, completed_at, deleted,
                          origin_case_id, origin_kind, origin_reason_code, version, last_position)
SELECT id, coalesce(data->>'patientName', ''), coalesce(data->>'doctorName', ''), coalesce(data->>'clinicName', ''),
       created_date, delivery_date, status,
       CASE WHEN status = 'Completed' THEN status_entered_at END, deleted,
       data->'origin'->>'caseId', data->'origin'->>'kind', data->'origin'->>'reasonCode', version, last_position
  FROM case_view;
