-- Creator moderation (issue #12 items 5 and 6).

-- Watched words: an admin's list of words and phrases; a comment or tweet containing one is held
-- for review. Unique whatever the case.
CREATE TABLE watched_words (
  id uuid PRIMARY KEY,
  word text NOT NULL CONSTRAINT watched_words_length CHECK (char_length(word) BETWEEN 1 AND 100),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX watched_words_word ON watched_words (lower(word));

-- Review state, separate from take-downs: a held comment or tweet is shown to its author and its
-- reviewer only, and counts nowhere until approved.
ALTER TABLE comments
  ADD COLUMN review_state text NOT NULL DEFAULT 'published'
    CONSTRAINT comments_review_state_check CHECK (review_state IN ('published', 'held')),
  ADD COLUMN pinned_at timestamptz;
ALTER TABLE tweets
  ADD COLUMN review_state text NOT NULL DEFAULT 'published'
    CONSTRAINT tweets_review_state_check CHECK (review_state IN ('published', 'held'));

-- One pinned comment per video, top-level only.
CREATE UNIQUE INDEX comments_one_pinned ON comments (video_id) WHERE pinned_at IS NOT NULL;
ALTER TABLE comments ADD CONSTRAINT comments_pinned_top_level CHECK (pinned_at IS NULL OR (parent_id IS NULL AND video_id IS NOT NULL));
-- The reviewers' queues.
CREATE INDEX comments_held ON comments (created_at DESC, id DESC) WHERE review_state = 'held';
CREATE INDEX tweets_held ON tweets (created_at DESC, id DESC) WHERE review_state = 'held';

-- Comments on or off per video (the default comes from the instance settings at creation).
ALTER TABLE videos ADD COLUMN comments_enabled boolean NOT NULL DEFAULT true;

-- Users a channel blocked from commenting on its videos and tweets.
CREATE TABLE channel_blocks (
  channel_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (channel_id, user_id),
  CONSTRAINT channel_blocks_not_self CHECK (channel_id <> user_id)
);
CREATE INDEX channel_blocks_list ON channel_blocks (channel_id, created_at DESC, user_id DESC);
