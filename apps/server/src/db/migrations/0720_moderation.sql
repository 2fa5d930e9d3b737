-- Content state (ARCHITECTURE §8, ADR 012): separate from privacy. A taken-down video, tweet or
-- comment is hidden from everyone but its owner (who sees the reason and may appeal once) and staff.
-- The state lives on the content so the one visibility rule filters it without a join.
ALTER TABLE videos
  ADD COLUMN taken_down_at timestamptz,
  ADD COLUMN taken_down_by uuid REFERENCES users(id) ON DELETE SET NULL,
  ADD COLUMN takedown_reason text,
  ADD COLUMN appeal_text text,
  ADD COLUMN appealed_at timestamptz,
  ADD COLUMN appeal_closed_at timestamptz;
ALTER TABLE tweets
  ADD COLUMN taken_down_at timestamptz,
  ADD COLUMN taken_down_by uuid REFERENCES users(id) ON DELETE SET NULL,
  ADD COLUMN takedown_reason text,
  ADD COLUMN appeal_text text,
  ADD COLUMN appealed_at timestamptz,
  ADD COLUMN appeal_closed_at timestamptz;
ALTER TABLE comments
  ADD COLUMN taken_down_at timestamptz,
  ADD COLUMN taken_down_by uuid REFERENCES users(id) ON DELETE SET NULL,
  ADD COLUMN takedown_reason text,
  ADD COLUMN appeal_text text,
  ADD COLUMN appealed_at timestamptz,
  ADD COLUMN appeal_closed_at timestamptz;

-- Appeals waiting for a moderator: the queue's "appealed" filter.
CREATE INDEX videos_pending_appeal ON videos (appealed_at) WHERE taken_down_at IS NOT NULL AND appeal_closed_at IS NULL AND appealed_at IS NOT NULL;
CREATE INDEX tweets_pending_appeal ON tweets (appealed_at) WHERE taken_down_at IS NOT NULL AND appeal_closed_at IS NULL AND appealed_at IS NOT NULL;
CREATE INDEX comments_pending_appeal ON comments (appealed_at) WHERE taken_down_at IS NOT NULL AND appeal_closed_at IS NULL AND appealed_at IS NOT NULL;

-- The visibility rule asks "is the owner suspended?" for every row: a tiny index of suspended accounts.
CREATE INDEX users_suspended ON users (id) WHERE state = 'suspended';

CREATE TABLE reports (
  id uuid PRIMARY KEY,
  reporter_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  target_kind text NOT NULL CONSTRAINT reports_kind_check CHECK (target_kind IN ('video', 'comment', 'tweet', 'channel')),
  target_id uuid NOT NULL,
  reason text NOT NULL CONSTRAINT reports_reason_check
    CHECK (reason IN ('spam', 'harassment', 'hateful', 'sexual', 'violent', 'copyright', 'other')),
  text text NOT NULL DEFAULT '',
  state text NOT NULL DEFAULT 'open' CONSTRAINT reports_state_check CHECK (state IN ('open', 'dismissed', 'actioned')),
  created_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  resolved_by uuid REFERENCES users(id) ON DELETE SET NULL
);
-- One open report per reporter and target (a second one answers 409).
CREATE UNIQUE INDEX reports_one_open ON reports (reporter_id, target_kind, target_id) WHERE state = 'open';
CREATE INDEX reports_by_target ON reports (target_kind, target_id, state);
CREATE INDEX reports_by_reporter ON reports (reporter_id, created_at DESC, id DESC);
CREATE INDEX reports_by_state ON reports (state, created_at DESC);

-- Every staff action (ARCHITECTURE §8), written in the action's transaction. No foreign key on
-- the target: the log outlives deleted content. When an account is deleted, the entries about it
-- and its content keep the action, reason and time but forget the id (NULL): nothing names it.
CREATE TABLE moderation_log (
  id uuid PRIMARY KEY,
  actor_id uuid REFERENCES users(id) ON DELETE SET NULL,
  target_kind text NOT NULL,
  target_id uuid,
  action text NOT NULL,
  reason text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX moderation_log_recent ON moderation_log (created_at DESC, id DESC);
