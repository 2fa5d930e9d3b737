/**
 * Fills a PostgreSQL server with a generated catalogue for benchmarks:
 * at --videos 100000 (default): 10k channels, 100k videos, 1M likes and 1M comments.
 * Usage: tsx bench/seed-catalogue.ts --url postgres://... [--videos 100000] [--reactions 1000000] [--from likes]
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { wrapPool } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';

const WORDS = [
  'cooking', 'travel', 'music', 'guitar', 'piano', 'football', 'tutorial', 'review', 'vlog', 'science',
  'space', 'history', 'coding', 'typescript', 'postgres', 'gaming', 'speedrun', 'nature', 'ocean', 'mountain',
  'city', 'night', 'morning', 'recipe', 'pasta', 'bread', 'coffee', 'camera', 'drone', 'painting',
  'chess', 'yoga', 'running', 'cycling', 'podcast', 'interview', 'news', 'comedy', 'animation', 'robot',
];

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
  const words = `ARRAY[${WORDS.map((w) => `'${w}'`).join(',')}]`;
  const pick = (seed: string) => `(${words})[1 + (abs(hashtext(${seed})) % ${WORDS.length})]`;
  const steps: [string, string][] = [
    ['truncate', 'TRUNCATE users, videos, tweets, comments, likes, subscriptions, playlists, playlist_videos, watch_history, sessions, email_tokens, jobs CASCADE'],
    [
      `${channels} channels`,
      `INSERT INTO users (id, user_name, full_name, email, password_hash, email_verified_at, subscriber_count, created_at)
       SELECT gen_random_uuid(), 'channel' || g, initcap(${pick("g::text || 'a'")}) || ' ' || initcap(${pick("g::text || 'b'")}) || ' ' || g,
              'channel' || g || '@bench.local', 'x', now(), (g * 7919) % 5000, now() - (g % 1000) * interval '1 day'
       FROM generate_series(1, ${channels}) g`,
    ],
    [
      `${videos} videos`,
      `WITH owners AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM users)
       INSERT INTO videos (id, owner_id, title, description, duration, views, likes, comments_count, is_published, status, hls_key, thumbnail_key, created_at, updated_at)
       SELECT gen_random_uuid(), o.id,
              initcap(${pick("g::text || 't1'")}) || ' ' || ${pick("g::text || 't2'")} || ' ' || ${pick("g::text || 't3'")} || ' #' || g,
              'A video about ' || ${pick("g::text || 'd1'")} || ', ' || ${pick("g::text || 'd2'")} || ' and ' || ${pick("g::text || 'd3'")} || '.',
              (g * 37) % 3600, (g::bigint * 104729) % 1000000, 0, 0, g % 20 <> 0, 'ready',
              'videos/bench/hls/master.m3u8', 'videos/bench/thumb.jpg', now() - (g % 2000) * interval '1 hour', now()
       FROM generate_series(1, ${videos}) g JOIN owners o ON o.n = 1 + (g % ${channels})`,
    ],
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
    ['analyze', 'ANALYZE'],
  ];
  const start = from ? steps.findIndex(([label]) => label.includes(from)) : 0;
  if (start < 0) throw new Error(`No seeding step '${from}'`);
  for (const [label, text] of steps.slice(start)) {
    const t0 = performance.now();
    // Each step is one statement, so a terminated one left nothing behind and runs again whole.
    await database.exec(text).catch((err: unknown) => (terminated(err) ? database.exec(text) : Promise.reject(err)));
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
