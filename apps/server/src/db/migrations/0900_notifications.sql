-- Events and notifications (ARCHITECTURE §10). A change others should hear about writes an `events`
-- row and its fan-out job in the same transaction (a transactional outbox); the worker turns it
-- into `notifications` rows, at most one per event and recipient, so a retried fan-out adds none
-- twice, and then deletes the event (its id lives on in the notifications, without a foreign key).
CREATE TABLE events (
  id uuid PRIMARY KEY,
  kind text NOT NULL,
  actor_id uuid REFERENCES users (id) ON DELETE CASCADE,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE notifications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  event_id uuid NOT NULL,
  type text NOT NULL CHECK (type IN ('newVideo', 'comment', 'reply', 'mention', 'newSubscriber', 'videoProcessed', 'moderation')),
  actor_id uuid REFERENCES users (id) ON DELETE SET NULL,
  subject jsonb NOT NULL,
  read_at timestamptz,
  -- How it is mailed, decided at fan-out from the recipient's preference: 'instant', 'digest' or NULL
  -- (not mailed); emailed_at once it went out.
  email_mode text CHECK (email_mode IN ('instant', 'digest')),
  emailed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (event_id, user_id)
);
CREATE INDEX notifications_list ON notifications (user_id, created_at DESC, id DESC);
CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL;
CREATE INDEX notifications_mail_due ON notifications (email_mode, created_at) WHERE email_mode IS NOT NULL AND emailed_at IS NULL;

-- A user's mail preference per type; a missing row means the type's default (contract defaultEmailModes).
CREATE TABLE notification_settings (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  type text NOT NULL,
  email_mode text NOT NULL CHECK (email_mode IN ('off', 'instant', 'digest')),
  PRIMARY KEY (user_id, type)
);

-- Set once, when a video first becomes public and ready: its subscribers hear of it once, not at
-- every privacy toggle or restore.
ALTER TABLE videos ADD COLUMN announced_at timestamptz;
UPDATE videos SET announced_at = created_at WHERE privacy = 'public' AND status = 'ready';

-- Subscribers of a channel in id order: the fan-out's batches.
DROP INDEX subscriptions_channel;
CREATE INDEX subscriptions_channel ON subscriptions (channel_id, subscriber_id);
