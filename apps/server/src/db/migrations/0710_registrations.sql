-- Registration in approval mode: what the person told the moderators (optional), and the
-- moderators' queue of pending accounts, oldest first.
ALTER TABLE users ADD COLUMN registration_reason text;

CREATE INDEX users_pending_approval_idx ON users (created_at, id) WHERE state = 'pending_approval';
