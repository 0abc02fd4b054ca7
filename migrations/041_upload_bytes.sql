-- Per-user upload volume per day (api.md, "Patient data": 2 GB a day). Counted when a file is
-- received, and kept when the file is later removed or swept: the limit is on what was sent.
CREATE TABLE upload_bytes_daily (
  username_key text   NOT NULL,
  day          date   NOT NULL,
  bytes        bigint NOT NULL CHECK (bytes >= 0),
  PRIMARY KEY (username_key, day)
);
