-- Search at a million videos (ADR 016).
-- Typos are corrected against the catalogue's words, not against every title: `search_words` holds
-- each distinct word of titles and descriptions once (vocabulary-sized), with a trigram index for
-- nearest-word lookups (GIN: a probe reads only the words sharing trigrams with the typed one). The per-title trigram indexes it replaces grew with the catalogue.
DROP INDEX IF EXISTS videos_title_trgm_gist;
DROP INDEX IF EXISTS videos_title_trgm;

-- Title-only document: a search ranks title matches first and finds them through this index.
ALTER TABLE videos ADD COLUMN title_search tsvector GENERATED ALWAYS AS (to_tsvector('english', title)) STORED;
CREATE INDEX videos_title_search ON videos USING gin (title_search);
-- A word in a large share of titles is cheaper to find in views order than through its long
-- posting list: this covering index lets that scan test each listed video's title without
-- visiting the table (index-only; owner_id for the suspended-owner check).
CREATE INDEX videos_listed_title_by_views ON videos (views DESC, id DESC) INCLUDE (title_search, owner_id)
  WHERE privacy = 'public' AND status = 'ready' AND taken_down_at IS NULL;

CREATE TABLE search_words (word text PRIMARY KEY);
CREATE INDEX search_words_trgm ON search_words USING gin (word gin_trgm_ops);

-- The words a search may correct to: lower-case letters only, 3 to 40 of them.
CREATE FUNCTION search_words_of(title text, description text) RETURNS SETOF text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT DISTINCT w FROM regexp_split_to_table(lower(title || ' ' || description), '[^[:alpha:]]+') w WHERE length(w) BETWEEN 3 AND 40 $$;

-- Words are only ever added (DO NOTHING takes no row lock, so concurrent uploads never wait on a
-- common word); a word whose videos are gone stays, harmlessly: a query corrected to it keeps its
-- original terms too (ADR 016). Sorted so concurrent inserts take index locks in one order.
CREATE FUNCTION search_words_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word)
    SELECT DISTINCT w FROM added, LATERAL search_words_of(added.title, added.description) w ORDER BY 1
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER videos_search_words_insert AFTER INSERT ON videos
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION search_words_added();

CREATE FUNCTION search_words_edited() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word) SELECT w FROM search_words_of(NEW.title, NEW.description) w ORDER BY 1 ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER videos_search_words_update AFTER UPDATE OF title, description ON videos
  FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.description IS DISTINCT FROM NEW.description)
  EXECUTE FUNCTION search_words_edited();

INSERT INTO search_words (word) SELECT DISTINCT w FROM videos, LATERAL search_words_of(videos.title, videos.description) w ON CONFLICT DO NOTHING;
