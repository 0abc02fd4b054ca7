-- Notification delivery: where to push, and what happened to every notification.
-- See backend/src/notifications/README.md.

-- A browser's web push subscription. One user, several devices; one device (endpoint), one user:
-- a browser that subscribes again for another user moves to that user.
CREATE TABLE push_subscriptions (
  id         bigserial   PRIMARY KEY,
  username   text        NOT NULL,           -- lower-cased, as user_view.username_key
  endpoint   text        NOT NULL UNIQUE,
  keys       jsonb       NOT NULL,           -- {p256dh, auth}
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (username);

-- A mobile app's FCM registration token; several per user (phone, tablet).
CREATE TABLE fcm_tokens (
  id         bigserial   PRIMARY KEY,
  username   text        NOT NULL,           -- lower-cased
  token      text        NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fcm_tokens_user ON fcm_tokens (username);

-- One row per queued job (id = the job id: event position, recipient and channel for the
-- notifications of events). Upserted by the dispatcher ('queued') and by the workers.
CREATE TABLE notification_deliveries (
  id             text        PRIMARY KEY,
  channel        text        NOT NULL CHECK (channel IN ('webpush', 'fcm')),
  username       text        NOT NULL,
  status         text        NOT NULL CHECK (status IN ('queued', 'delivered', 'failed', 'removed')),
  attempts       int         NOT NULL DEFAULT 0,
  last_error     text,
  at             timestamptz NOT NULL DEFAULT now(),   -- last change
  event_position bigint,                              -- null for notifications sent by hand
  job            jsonb       NOT NULL,                -- the job, to queue it again if a queue lost it
  devices        jsonb       NOT NULL DEFAULT '{}'    -- per device: delivered | removed (never twice)
);
CREATE INDEX notification_deliveries_at ON notification_deliveries (at DESC);
CREATE INDEX notification_deliveries_queued ON notification_deliveries (at) WHERE status = 'queued';

-- The dispatcher starts after the events that exist when this feature arrives: a lab upgrading
-- with years of history must not be notified of all of it. (An empty store adds no row; the
-- dispatcher then starts from the beginning.)
INSERT INTO projection_checkpoints (name, transaction_id, global_position)
SELECT 'notifications', transaction_id, global_position
  FROM events
 ORDER BY transaction_id DESC, global_position DESC
 LIMIT 1
ON CONFLICT (name) DO NOTHING;
