-- The moderation log names its targets (issue #34): `target_label` is what the target was called
-- when the action was taken (a video's title, a tweet's or comment's text, a channel's name and
-- handle), so an entry about something deleted since still reads as more than an id. The log shows
-- the live name while the target exists. When an account is deleted, its entries forget the label
-- with the id (ADR 012). `from_cli`: the action was taken with `npm run admin` (no account acted).
ALTER TABLE moderation_log ADD COLUMN target_label text;
ALTER TABLE moderation_log ADD COLUMN from_cli boolean NOT NULL DEFAULT false;

-- Entries written before: the label of what still exists.
UPDATE moderation_log l SET target_label = COALESCE(
  (SELECT v.title FROM videos v WHERE l.target_kind = 'video' AND v.id = l.target_id),
  (SELECT left(tw.content, 120) FROM tweets tw WHERE l.target_kind = 'tweet' AND tw.id = l.target_id),
  (SELECT left(c.content, 120) FROM comments c WHERE l.target_kind = 'comment' AND c.id = l.target_id),
  (SELECT u.full_name || ' (@' || u.user_name || ')' FROM users u WHERE l.target_kind = 'channel' AND u.id = l.target_id)
) WHERE l.target_id IS NOT NULL;
