-- Reports on comments across servers (issue #35): another server's Flag naming a comment of a
-- federated thread (`federated_comments`: one of ours, or a remote one under our video) is queued
-- for our moderators as a report of kind 'federatedComment'.
ALTER TABLE reports DROP CONSTRAINT reports_kind_check;
ALTER TABLE reports ADD CONSTRAINT reports_kind_check CHECK (target_kind IN ('video', 'comment', 'tweet', 'channel', 'federatedComment'));
