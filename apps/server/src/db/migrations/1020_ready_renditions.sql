-- Progressive playability (ADR 019): the transcode job stores the lowest rung first and the video
-- plays from then on; the other rungs follow. `renditions` is the ladder the job planned, by HLS
-- variant name in ladder order ('240p', '360p', ...); `renditions_ready` the ones stored and named
-- in the master playlist. Videos from before this migration keep empty lists: all their rungs
-- were made in one go, so there is nothing to wait for.
ALTER TABLE videos ADD COLUMN renditions text[] NOT NULL DEFAULT '{}';
ALTER TABLE videos ADD COLUMN renditions_ready text[] NOT NULL DEFAULT '{}';
