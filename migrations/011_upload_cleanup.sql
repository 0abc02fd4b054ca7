-- The sweep of uploads never attached to a case looks for old rows without a case; this keeps that
-- look-up to those few rows however many files the cases hold.
CREATE INDEX uploads_unattached ON uploads (created_at) WHERE case_id IS NULL;
