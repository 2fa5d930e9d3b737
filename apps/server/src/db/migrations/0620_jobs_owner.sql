-- The account a job works for: the claim takes owners in turn, so one owner's queue cannot
-- starve the others. Deleting the account deletes its jobs (a running one sees it at its heartbeat).
ALTER TABLE jobs ADD COLUMN owner_id uuid REFERENCES users (id) ON DELETE CASCADE;
UPDATE jobs SET owner_id = v.owner_id FROM videos v WHERE jobs.owner_id IS NULL AND v.id::text = jobs.payload ->> 'videoId';
CREATE INDEX jobs_owner ON jobs (owner_id, locked_at);
