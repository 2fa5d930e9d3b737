-- Live chat (issue 36, ADR 024): comments on a live, with the rules of every comment (watched words,
-- channel blocks, the owner's review). A comment still hangs on exactly one thing.
ALTER TABLE comments ADD COLUMN live_id uuid REFERENCES lives (id) ON DELETE CASCADE;
ALTER TABLE comments DROP CONSTRAINT comments_check;
ALTER TABLE comments ADD CONSTRAINT comments_one_entity CHECK (num_nonnulls(video_id, tweet_id, live_id) = 1);
CREATE INDEX comments_live ON comments (live_id, parent_id, created_at DESC, id DESC) WHERE live_id IS NOT NULL;
