-- A live's own thumbnail (issue 36): re-encoded like a video's and stored under lives/{id}/thumb-*.
-- Null when the creator set none. Deleting the live deletes everything under lives/{id}/.
ALTER TABLE lives ADD COLUMN thumbnail_key text;
