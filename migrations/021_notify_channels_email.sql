-- Each user chooses the channels they are told on (api.md, Reach and insight): both on by
-- default, also for every user of an older log. Email is a delivery channel like web push and FCM.
ALTER TABLE user_view ADD COLUMN notify_push boolean NOT NULL DEFAULT true;
ALTER TABLE user_view ADD COLUMN notify_email boolean NOT NULL DEFAULT true;

ALTER TABLE notification_deliveries DROP CONSTRAINT notification_deliveries_channel_check;
ALTER TABLE notification_deliveries
  ADD CONSTRAINT notification_deliveries_channel_check CHECK (channel IN ('webpush', 'fcm', 'email'));
