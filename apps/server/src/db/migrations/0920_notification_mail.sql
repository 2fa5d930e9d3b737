-- Mailing notifications (issue #14). A mail run claims a row by setting mail_claimed_at (a lease,
-- so two workers never mail one row), sets emailed_at once it went out, and clears the claim when
-- SMTP fails (tried again later). A claim older than the lease (a worker that died mid-send) is free again.
ALTER TABLE notifications ADD COLUMN mail_claimed_at timestamptz;

-- When each user's last daily digest went out: at most one every 24 hours.
CREATE TABLE notification_digests (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  sent_at timestamptz NOT NULL
);
