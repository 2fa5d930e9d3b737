/**
 * Notification fan-out: one new video from a channel with --subscribers subscribers (100,000 by
 * default) told to every one of them by the worker, while the API answers the home feed and a
 * watch page. Prints the fan-out time against its goal (under 30 s) and the API p99 while it runs
 * against the p99 of the same load just before, idle, on the same server (issue 37's goal: at most 1.2x),
 * with the load average after each step (the machine is shared).
 * The server runs as `npm start` does on a PostgreSQL server: API and worker in one process.
 * Usage: npm run bench -- fanout [--subscribers 100000] [--connections 16]
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { AccessTokens } from '../apps/server/src/identity/access-token.ts';
import { FANOUT_BATCH } from '../apps/server/src/modules/notifications/notification-events.ts';
import { BACKGROUND_SHARE } from '../apps/server/src/jobs/pace.ts';
import { benchDatabaseUrl, fmt, freePort, freshDatabase, load, loadNow, ratio, report, startGlimpse, stop, waitFor, type Figure } from './lib.ts';

const { values } = parseArgs({
  options: { subscribers: { type: 'string', default: '100000' }, connections: { type: 'string', default: '16' } },
});
const subscribers = Number(values.subscribers);
const connections = Number(values.connections);
const url = benchDatabaseUrl('fanout');
const PORT = await freePort();
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret';
const GOAL_SECONDS = 30;
const GOAL_P99 = 1.2;

/** The channel, its subscribers, its private (about to be published) video, and a home feed of 200 videos. */
async function seed(db: pg.Client): Promise<{ channelId: string; channelName: string; videoId: string; watchId: string }> {
  const channel = await db.query<{ id: string; user_name: string }>(
    `INSERT INTO users (id, user_name, full_name, email, password_hash, email_verified_at)
     VALUES (gen_random_uuid(), 'bigchannel', 'Big Channel', 'big@bench.local', 'x', now()) RETURNING id, user_name`,
  );
  const channelId = channel.rows[0]!.id;
  await db.query(
    `WITH u AS (
       INSERT INTO users (id, user_name, full_name, email, password_hash, email_verified_at)
       SELECT gen_random_uuid(), 'fan' || g, 'Fan ' || g, 'fan' || g || '@bench.local', 'x', now() FROM generate_series(1, $1) g
       RETURNING id)
     INSERT INTO subscriptions (subscriber_id, channel_id) SELECT id, $2 FROM u`,
    [subscribers, channelId],
  );
  await db.query(`UPDATE users SET subscriber_count = $1 WHERE id = $2`, [subscribers, channelId]);
  const feed = await db.query<{ id: string }>(
    `INSERT INTO videos (id, owner_id, title, description, duration, privacy, status, hls_key, thumbnail_key)
     SELECT gen_random_uuid(), $1, 'Feed video ' || g, 'Something to watch', 60, 'public', 'ready', 'videos/bench/hls/master.m3u8', 'videos/bench/thumb.jpg'
     FROM generate_series(1, 200) g RETURNING id`,
    [channelId],
  );
  await db.query(`UPDATE videos SET announced_at = now()`);
  const video = await db.query<{ id: string }>(
    `INSERT INTO videos (id, owner_id, title, description, duration, privacy, status, hls_key, thumbnail_key)
     VALUES (gen_random_uuid(), $1, 'The big premiere', 'New!', 60, 'private', 'ready', 'videos/bench/hls/master.m3u8', 'videos/bench/thumb.jpg') RETURNING id`,
    [channelId],
  );
  await db.query('VACUUM ANALYZE');
  return { channelId, channelName: channel.rows[0]!.user_name, videoId: video.rows[0]!.id, watchId: feed.rows[0]!.id };
}

const apiLoad = (label: string, seconds: number, watchId: string) =>
  load(label, {
    url: `http://127.0.0.1:${PORT}`,
    connections,
    seconds,
    requests: [
      { method: 'GET', path: '/api/v1/videos?sortBy=views&limit=10' },
      { method: 'GET', path: `/api/v1/videos/${watchId}` },
    ],
  });

async function main() {
  await freshDatabase(url);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  console.log(`seeding ${subscribers} subscribers...`);
  const { channelId, channelName, videoId, watchId } = await seed(db);
  const token = await new AccessTokens(JWT_SECRET, 900).sign({ id: channelId, userName: channelName });

  const server = startGlimpse(PORT, { DATABASE_URL: url, JWT_SECRET, WORKER_ENABLED: 'true', DATA_DIR: 'bench/tmp/fanout' });
  try {
    await waitFor(`http://127.0.0.1:${PORT}/api/v1/health`);
    await apiLoad('warm-up', 3, watchId);
    const before = await apiLoad('API before the fan-out', 10, watchId);
    const loadBefore = loadNow();

    const publishedAt = Date.now();
    const res = await fetch(`http://127.0.0.1:${PORT}/api/v1/videos/${videoId}/publish`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ isPublished: true }),
    });
    if (res.status !== 200) throw new Error(`publish answered ${res.status}: ${await res.text()}`);
    const publishMs = Date.now() - publishedAt;

    // The load runs while the fan-out does; the count is polled beside it.
    const during = apiLoad('API during the fan-out', 10, watchId);
    let fanoutMs = NaN;
    for (;;) {
      const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM notifications WHERE type = 'newVideo'`);
      if (rows[0]!.n >= subscribers) {
        fanoutMs = Date.now() - publishedAt;
        break;
      }
      if (Date.now() - publishedAt > 10 * 60_000) throw new Error(`fan-out incomplete after 10 min: ${rows[0]!.n} of ${subscribers}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const loadFanout = loadNow();
    const loaded = await during;
    const loadDuring = loadNow();
    const p99Ratio = ratio(loaded.p99, before.p99);
    const failures = loaded.errors + loaded.non2xx;
    const figures: Figure[] = [
      { figure: `one new video -> ${subscribers.toLocaleString('en')} subscribers' notifications`, value: `${fmt(fanoutMs / 1000, 1)} s (load ${loadFanout})`, goal: `< ${GOAL_SECONDS} s`, met: fanoutMs / 1000 < GOAL_SECONDS },
      {
        figure: `API p99 during the fan-out / before, ${connections} connections`,
        value: `${fmt(p99Ratio)} (${loaded.p99} vs ${before.p99} ms; ${fmt(loaded.requestsPerSec, 0)} vs ${fmt(before.requestsPerSec, 0)} req/s; load ${loadDuring} vs ${loadBefore})`,
        goal: `<= ${GOAL_P99}`,
        met: p99Ratio <= GOAL_P99,
      },
      { figure: 'API errors / non-2xx during the fan-out', value: `${loaded.errors} / ${loaded.non2xx}`, goal: '0 / 0', met: failures === 0 },
    ];
    report('fanout', `npm run bench -- fanout --subscribers ${subscribers} --connections ${connections}`, [
      `One new video told to ${subscribers.toLocaleString('en')} subscribers (API and worker in one process, PostgreSQL server, batches of ${FANOUT_BATCH.toLocaleString('en')} paced to ${BACKGROUND_SHARE * 100}% of the wall time). The load during the fan-out runs 10 s from the publish: when the fan-out ends sooner, the rest of that window is idle. Load average (1 min) after each step.`,
      '',
      '| figure | value | goal | met |',
      '|---|---|---|---|',
      `| publish request (writes the event and its job) | ${publishMs} ms | - | - |`,
      `| fan-out: publish -> every notification written | ${fmt(fanoutMs / 1000, 1)} s (load ${loadFanout}) | < ${GOAL_SECONDS} s | ${fanoutMs / 1000 < GOAL_SECONDS ? 'yes' : 'no'} |`,
      `| API p99 before, idle (home feed + watch GET, ${connections} connections, 10 s) | ${before.p99} ms (${fmt(before.requestsPerSec, 0)} req/s; load ${loadBefore}) | - | - |`,
      `| API p99 during the fan-out (same load) | ${loaded.p99} ms (${fmt(loaded.requestsPerSec, 0)} req/s; load ${loadDuring}) | - | - |`,
      `| p99 during / before | ${fmt(p99Ratio)} | <= ${GOAL_P99} | ${p99Ratio <= GOAL_P99 ? 'yes' : 'no'} |`,
      `| errors / non-2xx during | ${loaded.errors} / ${loaded.non2xx} | 0 / 0 | ${failures === 0 ? 'yes' : 'no'} |`,
    ], figures);
  } finally {
    await stop(server);
    await db.end();
  }
}

await main();
