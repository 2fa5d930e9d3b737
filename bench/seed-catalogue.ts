/**
 * Fills a PostgreSQL server with a generated catalogue for benchmarks:
 * at --videos 100000 (default): 10k channels, 100k videos, 1M likes and 1M comments.
 * Video titles (3-12 words) and descriptions (10-80 words) are drawn from a vocabulary of real
 * English words (Debian's wamerican list) with a Zipf distribution, so a few words are very common
 * and most are rare, as in real text.
 * Usage: tsx bench/seed-catalogue.ts --url postgres://... [--videos 100000] [--reactions 1000000] [--from likes]
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { wrapPool } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';

/** The word list the search catalogue draws from (Debian package wamerican). */
export const VOCABULARY_FILE = '/usr/share/dict/american-english';

/** A small deterministic PRNG (mulberry32): the same seed gives the same catalogue on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The vocabulary in Zipf rank order: the list's lower-case words (no proper nouns, no possessives),
 * shuffled with a fixed seed so that rank 1 is not simply the first word of the alphabet.
 */
export function loadVocabulary(): string[] {
  if (!existsSync(VOCABULARY_FILE)) {
    throw new Error(`${VOCABULARY_FILE} is missing: the search catalogue draws its words from it. Install it with: apt-get install -y wamerican`);
  }
  const words = [...new Set(readFileSync(VOCABULARY_FILE, 'utf8').split('\n').filter((w) => /^[a-z]{2,}$/.test(w)))];
  const random = prng(16);
  for (let i = words.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [words[i], words[j]] = [words[j]!, words[i]!];
  }
  return words;
}

/** Zipf rank (exponent 1) by inverse transform: log-uniform over 1..n, so P(rank r) is proportional to 1/r. */
export const zipfRank = (random: () => number, n: number) => Math.min(n, Math.floor(Math.exp(random() * Math.log(n + 1))));

/** `count` words drawn from the vocabulary by Zipf rank. */
export const zipfWords = (vocabulary: string[], random: () => number, count: number) =>
  Array.from({ length: count }, () => vocabulary[zipfRank(random, vocabulary.length) - 1]!);

/** Video number g's title and description: its own PRNG stream, so a bench can name a real title's words. */
export function videoText(vocabulary: string[], g: number): { title: string[]; description: string[] } {
  const random = prng(g);
  const title = zipfWords(vocabulary, random, 3 + Math.floor(random() * 10));
  return { title, description: zipfWords(vocabulary, random, 10 + Math.floor(random() * 71)) };
}

const BATCH = 10_000;

/** Inserts the videos in batches of generated text (a video's words depend only on its number). */
async function insertVideos(pool: pg.Pool, videos: number, channels: number): Promise<void> {
  const vocabulary = loadVocabulary();
  await pool.query('TRUNCATE videos CASCADE');
  for (let from = 1; from <= videos; from += BATCH) {
    const titles: string[] = [];
    const descriptions: string[] = [];
    for (let g = from; g < Math.min(videos + 1, from + BATCH); g++) {
      const text = videoText(vocabulary, g);
      const title = text.title.join(' ');
      titles.push(title.charAt(0).toUpperCase() + title.slice(1));
      descriptions.push(`${text.description.join(' ')}.`);
    }
    await pool.query(
      `WITH owners AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM users)
       INSERT INTO videos (id, owner_id, title, description, duration, views, likes, comments_count, privacy, status, hls_key, thumbnail_key, created_at, updated_at)
       SELECT gen_random_uuid(), o.id, t.title, t.description,
              (g * 37) % 3600, (g::bigint * 104729) % 1000000, 0, 0, CASE WHEN g % 20 <> 0 THEN 'public' ELSE 'private' END, 'ready',
              'videos/bench/hls/master.m3u8', 'videos/bench/thumb.jpg', now() - (g % 2000) * interval '1 hour', now()
       FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(title, description, i)
       CROSS JOIN LATERAL (SELECT $3::int + t.i::int - 1 AS g) n
       JOIN owners o ON o.n = 1 + (g % ${channels})`,
      [titles, descriptions, from],
    );
    if ((from - 1) % (BATCH * 20) === 0) console.log(`seed: videos ${from - 1 + titles.length} of ${videos}`);
  }
}

/**
 * The videos' indexes (all but those behind constraints: the primary key stays for the joins) are
 * dropped before the load and built once after the counters' UPDATE: far faster than updating
 * them row by row, twice. Their definitions wait in a table, so a seed resumed with --from, or
 * run again after one that died, still restores them.
 */
const DEFER_INDEXES = `CREATE TABLE IF NOT EXISTS bench_deferred_indexes (name text PRIMARY KEY, def text NOT NULL);
  INSERT INTO bench_deferred_indexes (name, def)
    SELECT indexname, indexdef FROM pg_indexes i WHERE tablename = 'videos' AND schemaname = current_schema()
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass)
    ON CONFLICT DO NOTHING;
  DO $$ DECLARE r record; BEGIN
    FOR r IN SELECT name FROM bench_deferred_indexes LOOP EXECUTE format('DROP INDEX IF EXISTS %I', r.name); END LOOP;
  END $$`;
const RESTORE_INDEXES = `SET maintenance_work_mem = '512MB';
  DO $$ DECLARE r record; BEGIN
    FOR r IN SELECT def FROM bench_deferred_indexes LOOP EXECUTE r.def; END LOOP;
  END $$;
  DROP TABLE bench_deferred_indexes;
  RESET maintenance_work_mem`;

/** A statement ended by another session (pg_terminate_backend: the reliability suite does that). */
const terminated = (err: unknown) => (err as { code?: string }).code === '57P01';

/**
 * `from`: the label word of the first step to run (e.g. 'likes' resumes after the videos);
 * `reactions`: likes and comments each (default 10 per video).
 */
export async function seedCatalogue(url: string, videos: number, opts: { from?: string; reactions?: number } = {}): Promise<void> {
  const { from } = opts;
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});
  const database = wrapPool(pool);
  await migrate(database);
  const channels = Math.max(10, Math.round(videos / 10));
  const reactions = opts.reactions ?? videos * 10;
  const names = ['music', 'travel', 'cooking', 'science', 'garden', 'studio', 'river', 'pixel', 'north', 'atlas'];
  const words = `ARRAY[${names.map((w) => `'${w}'`).join(',')}]`;
  const pick = (seed: string) => `(${words})[1 + (abs(hashtext(${seed})) % ${names.length})]`;
  const steps: [string, string | (() => Promise<void>)][] = [
    ['truncate', 'TRUNCATE search_words, users, videos, tweets, comments, likes, subscriptions, playlists, playlist_videos, watch_history, sessions, email_tokens, jobs CASCADE'],
    [
      `${channels} channels`,
      `INSERT INTO users (id, user_name, full_name, email, password_hash, email_verified_at, subscriber_count, created_at)
       SELECT gen_random_uuid(), 'channel' || g, initcap(${pick("g::text || 'a'")}) || ' ' || initcap(${pick("g::text || 'b'")}) || ' ' || g,
              'channel' || g || '@bench.local', 'x', now(), (g * 7919) % 5000, now() - (g % 1000) * interval '1 day'
       FROM generate_series(1, ${channels}) g`,
    ],
    ['drop video indexes', DEFER_INDEXES],
    [`${videos} videos`, () => insertVideos(pool, videos, channels)],
    [
      `${reactions} likes`,
      `WITH v AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM videos),
            u AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM users)
       INSERT INTO likes (id, user_id, video_id, value)
       SELECT gen_random_uuid(), u.id, v.id, CASE WHEN g % 10 = 0 THEN -1 ELSE 1 END
       FROM generate_series(0, ${reactions - 1}) g
       JOIN v ON v.n = 1 + (g % ${videos})
       JOIN u ON u.n = 1 + ((g / ${videos}) * 7 + g % 13) % ${channels}
       ON CONFLICT DO NOTHING`,
    ],
    [
      `${reactions} comments`,
      `WITH v AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM videos),
            u AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM users)
       INSERT INTO comments (id, video_id, owner_id, content, created_at)
       SELECT gen_random_uuid(), v.id, u.id, 'Great ' || ${pick("g::text || 'c'")} || ' video ' || g, now() - (g % 5000) * interval '1 minute'
       FROM generate_series(0, ${reactions - 1}) g
       JOIN v ON v.n = 1 + (g % ${videos})
       JOIN u ON u.n = 1 + (g % ${channels})`,
    ],
    [
      'counters',
      `UPDATE videos SET likes = c.l, dislikes = c.d FROM (
         SELECT video_id, count(*) FILTER (WHERE value = 1) AS l, count(*) FILTER (WHERE value = -1) AS d FROM likes GROUP BY video_id
       ) c WHERE c.video_id = videos.id;
       UPDATE videos SET comments_count = c.n FROM (SELECT video_id, count(*) AS n FROM comments GROUP BY video_id) c WHERE c.video_id = videos.id`,
    ],
    ['video indexes', RESTORE_INDEXES],
    // VACUUM sets the visibility map (index-only scans), as autovacuum would.
    ['vacuum analyze', 'VACUUM ANALYZE'],
  ];
  const start = from ? steps.findIndex(([label]) => label.includes(from)) : 0;
  if (start < 0) throw new Error(`No seeding step '${from}'`);
  for (const [label, text] of steps.slice(start)) {
    const t0 = performance.now();
    // Each step is one statement (or starts by emptying its table), so a terminated one runs again whole.
    const run = () => (typeof text === 'string' ? database.exec(text) : text());
    await run().catch((err: unknown) => (terminated(err) ? run() : Promise.reject(err)));
    console.log(`seed: ${label} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  await database.close();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { url: { type: 'string' }, videos: { type: 'string', default: '100000' }, from: { type: 'string' }, reactions: { type: 'string' } },
  });
  const url = values.url ?? process.env.BENCH_DATABASE_URL;
  if (!url) throw new Error('Give --url or BENCH_DATABASE_URL');
  await seedCatalogue(url, Number(values.videos), { from: values.from, reactions: values.reactions ? Number(values.reactions) : undefined });
}
