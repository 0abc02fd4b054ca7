-- Push devices belong to one life of a user account: a user deleted and created again with the
-- same name must not inherit the devices of the first one. Each device records the version of
-- the user's stream when it was registered; the deletion (UserDeleted, at a later version) removes
-- the devices registered before it. See backend/src/notifications/README.md.
ALTER TABLE push_subscriptions ADD COLUMN user_version int NOT NULL DEFAULT 0;
ALTER TABLE fcm_tokens ADD COLUMN user_version int NOT NULL DEFAULT 0;

-- The cap of subscriptions per user replaces a user's oldest first.
CREATE INDEX push_subscriptions_user_age ON push_subscriptions (username, updated_at, id);
DROP INDEX push_subscriptions_user;
