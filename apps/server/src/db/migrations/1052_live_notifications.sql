-- Subscribers are told when a live starts (issue 36): a notification type of its own, with its own
-- mail preference.
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check
  CHECK (type IN ('newVideo', 'comment', 'reply', 'mention', 'newSubscriber', 'videoProcessed', 'moderation', 'live'));
