-- A supplier recall finds every case a material lot went into: the lots are in the case
-- document's stage records, and this index answers their containment (@>) without a scan.
CREATE INDEX IF NOT EXISTS case_view_stage_records
  ON case_view USING gin ((data->'stageRecords') jsonb_path_ops);
