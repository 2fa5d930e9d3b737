-- Typo matches of a relevance search come nearest-first from this index (KNN on the title's
-- word similarity), so a search needs only the closest titles, not every one sharing a trigram.
CREATE INDEX videos_title_trgm_gist ON videos USING gist (lower(title) gist_trgm_ops);
