-- Counted attempts (sign-in failures, AI calls) shared by every API process. One row per key and
-- fixed window: the window opens at the first counted attempt and ends `expires_at`; an attempt
-- after that opens a new window. Rows past their window are purged.
CREATE TABLE attempt_counts (
  key text PRIMARY KEY,
  attempts integer NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX attempt_counts_expiry ON attempt_counts (expires_at);

-- Idle timeout: a session without Remember Me ends after SESSION_IDLE_MINUTES without use.
-- last_used_at is written at most once a minute per session, not on every request.
ALTER TABLE sessions
  ADD COLUMN remember boolean NOT NULL DEFAULT false,
  ADD COLUMN last_used_at timestamptz NOT NULL DEFAULT now();
CREATE INDEX sessions_expiry ON sessions (expires_at);
