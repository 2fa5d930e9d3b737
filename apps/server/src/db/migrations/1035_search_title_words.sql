-- A search made only of stop words ("the", "to be or not to be"; issue #34) finds nothing in the
-- English full text, which drops them: it matches the titles' words as typed instead ('simple':
-- lower-cased, nothing dropped, no stems), through this index. Without it a rare stop word read
-- every title (about 1 s at 200k videos); with it, a probe. Only such searches use it (ADR 016).
CREATE INDEX videos_title_words ON videos USING gin (to_tsvector('simple', title));
-- The planner's statistics of the new expression: without them it takes every stop word for rare.
ANALYZE videos;
