-- Private subscription feeds (issue #14): one secret token per user, in the feed's URL. Only its
-- sha256 is stored (like refresh tokens): a copy of the database opens no one's feed. Replacing
-- the row invalidates the old token; deleting the account deletes the row (ON DELETE CASCADE).
CREATE TABLE feed_tokens (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
