/**
 * Federation (issue #35): one new public video delivered to --followers remote followers (10,000 by
 * default) spread over --hosts servers (100), each a local fake shared inbox, while the API answers
 * the home feed and a watch page; then signed incoming activities (Likes) posted to the inbox as fast
 * as it verifies them. Prints the delivery time, the API p99 during it against the p99 of the same
 * load just before (goal: at most 1.5x), and incoming activities verified per second by the one
 * server process (Node runs its JavaScript on one core).
 * Usage: npm run bench -- federation [--followers 10000] [--hosts 100] [--connections 16]
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { AccessTokens } from '../apps/server/src/identity/access-token.ts';
import { signRequest } from '../apps/server/src/modules/federation/http-signature.ts';
import { benchDatabaseUrl, fmt, freshDatabase, load, ratio, report, startGlimpse, stop, waitFor, type Figure } from './lib.ts';

const { values } = parseArgs({
  options: {
    followers: { type: 'string', default: '10000' },
    hosts: { type: 'string', default: '100' },
    connections: { type: 'string', default: '16' },
    incoming: { type: 'string', default: '6000' },
  },
});
const followers = Number(values.followers);
const hostCount = Number(values.hosts);
const connections = Number(values.connections);
const incoming = Number(values.incoming);
const url = benchDatabaseUrl('federation');
const PORT = 3213;
const BASE = `http://127.0.0.1:${PORT}`;
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret';
const GOAL_P99 = 1.5;

interface FakeHost {
  port: number;
  received: number;
  server: http.Server;
}

/** A remote server's shared inbox: answers 202 and counts what it got. */
async function fakeHost(): Promise<FakeHost> {
  const host = { received: 0 } as FakeHost;
  host.server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      host.received += 1;
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => host.server.listen(0, '127.0.0.1', resolve));
  host.port = (host.server.address() as net.AddressInfo).port;
  return host;
}

const actorUri = (h: FakeHost, i: number) => `http://127.0.0.1:${h.port}/actors/${i}`;

/** The channel, its video about to be published, 200 feed videos, and the remote followers (one key pair shared by all). */
async function seed(db: pg.Client, hosts: FakeHost[], publicKeyPem: string) {
  const channel = await db.query<{ id: string; user_name: string }>(
    `INSERT INTO users (id, user_name, full_name, email, password_hash, email_verified_at)
     VALUES (gen_random_uuid(), 'fedchannel', 'Federated Channel', 'fed@bench.local', 'x', now()) RETURNING id, user_name`,
  );
  const channelId = channel.rows[0]!.id;
  const feed = await db.query<{ id: string }>(
    `INSERT INTO videos (id, owner_id, title, description, duration, privacy, status, hls_key, thumbnail_key, announced_at)
     SELECT gen_random_uuid(), $1, 'Feed video ' || g, 'Something to watch', 60, 'public', 'ready', 'videos/bench/hls/master.m3u8', 'videos/bench/thumb.jpg', now()
     FROM generate_series(1, 200) g RETURNING id`,
    [channelId],
  );
  const video = await db.query<{ id: string }>(
    `INSERT INTO videos (id, owner_id, title, description, duration, privacy, status, hls_key, thumbnail_key)
     VALUES (gen_random_uuid(), $1, 'The federated premiere', 'New!', 60, 'private', 'ready', 'videos/bench/hls/master.m3u8', 'videos/bench/thumb.jpg') RETURNING id`,
    [channelId],
  );
  const perHost = Math.ceil(followers / hosts.length);
  const rows: string[] = [];
  const params: string[] = [];
  for (let i = 0; i < followers; i++) {
    const h = hosts[i % hosts.length]!;
    const uri = actorUri(h, Math.floor(i / hosts.length));
    params.push(uri, `127.0.0.1:${h.port}`, `${uri}/inbox`, `http://127.0.0.1:${h.port}/inbox`, `${uri}#main-key`);
    const n = params.length;
    rows.push(`(gen_random_uuid(), $${n - 4}, $${n - 3}, 'Person', 'fan', 'Fan', $${n - 2}, $${n - 1}, $${n}, $PEM)`);
    if (rows.length === 1000 || i === followers - 1) {
      const text = `INSERT INTO remote_actors (id, uri, host, type, preferred_username, name, inbox, shared_inbox, public_key_id, public_key_pem) VALUES ${rows.join(',')}`;
      await db.query(text.replaceAll('$PEM', `$${params.length + 1}`), [...params, publicKeyPem]);
      rows.length = 0;
      params.length = 0;
    }
  }
  await db.query(`INSERT INTO remote_followers (channel_id, actor_id, follow_id) SELECT $1, id, uri || '#follow' FROM remote_actors`, [channelId]);
  await db.query(`UPDATE users SET subscriber_count = $1 WHERE id = $2`, [followers, channelId]);
  await db.query('VACUUM ANALYZE');
  return { channelId, channelName: channel.rows[0]!.user_name, videoId: video.rows[0]!.id, watchId: feed.rows[0]!.id, perHost };
}

const apiLoad = (label: string, seconds: number, watchId: string) =>
  load(label, {
    url: BASE,
    connections,
    seconds,
    requests: [
      { method: 'GET', path: '/api/v1/videos?sortBy=views&limit=10' },
      { method: 'GET', path: `/api/v1/videos/${watchId}` },
    ],
  });

/** Posts pre-signed Likes to the shared inbox over `connections` keep-alive connections; answers accepted per second. */
async function postIncoming(requests: { path: string; headers: Record<string, string>; body: string }[]) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let next = 0;
  let accepted = 0;
  let refused = 0;
  const started = Date.now();
  const lane = async () => {
    while (next < requests.length) {
      const r = requests[next++]!;
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(`${BASE}${r.path}`, { method: 'POST', agent, headers: r.headers }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end(r.body);
      });
      if (status === 202) accepted += 1;
      else refused += 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, lane));
  agent.destroy();
  return { accepted, refused, perSecond: accepted / ((Date.now() - started) / 1000) };
}

async function main() {
  await freshDatabase(url);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const hosts = await Promise.all(Array.from({ length: hostCount }, fakeHost));
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  console.log(`seeding ${followers} remote followers on ${hostCount} hosts...`);
  const { channelId, channelName, videoId, watchId } = await seed(db, hosts, publicKey);
  const token = await new AccessTokens(JWT_SECRET, 900).sign({ id: channelId, userName: channelName });

  // Loopback inboxes: the test-only setting, so not NODE_ENV=production (which refuses it).
  const server = startGlimpse(PORT, {
    NODE_ENV: 'test',
    PUBLIC_URL: BASE,
    DATABASE_URL: url,
    JWT_SECRET,
    WORKER_ENABLED: 'true',
    FEDERATION_ALLOW_PRIVATE_ADDRESSES: 'true',
    DATA_DIR: 'bench/tmp/federation',
  });
  try {
    await waitFor(`${BASE}/api/v1/health`);
    await apiLoad('warm-up', 3, watchId);
    const before = await apiLoad('API before the delivery', 10, watchId);

    const publishedAt = Date.now();
    const res = await fetch(`${BASE}/api/v1/videos/${videoId}/publish`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ isPublished: true }),
    });
    if (res.status !== 200) throw new Error(`publish answered ${res.status}: ${await res.text()}`);
    const during = apiLoad('API during the delivery', 10, watchId);
    let deliveryMs = NaN;
    for (;;) {
      if (hosts.every((h) => h.received >= 1)) {
        deliveryMs = Date.now() - publishedAt;
        break;
      }
      if (Date.now() - publishedAt > 10 * 60_000) throw new Error(`delivery incomplete after 10 min: ${hosts.filter((h) => h.received > 0).length} of ${hostCount} hosts`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const loaded = await during;
    const posts = hosts.reduce((n, h) => n + h.received, 0);

    // Incoming: signed Likes of the new video from the seeded followers, each with its own id.
    const inbox = new URL(`${BASE}/ap/inbox`);
    const likes = Array.from({ length: incoming }, (_, i) => {
      const h = hosts[i % hosts.length]!;
      const actor = actorUri(h, Math.floor(i / hosts.length) % Math.ceil(followers / hostCount));
      const body = JSON.stringify({ type: 'Like', id: `http://127.0.0.1:${h.port}/likes/${randomUUID()}`, actor, object: `${BASE}/ap/videos/${videoId}` });
      const headers = signRequest({ method: 'POST', url: inbox, body, keyId: `${actor}#main-key`, privateKeyPem: privateKey });
      return { path: inbox.pathname, body, headers: { ...headers, 'content-type': 'application/activity+json' } };
    });
    const incomingResult = await postIncoming(likes);

    const p99Ratio = ratio(loaded.p99, before.p99);
    const failures = loaded.errors + loaded.non2xx;
    const figures: Figure[] = [
      {
        figure: `one new video -> ${followers.toLocaleString('en')} remote followers on ${hostCount} hosts (shared inboxes)`,
        value: `${fmt(deliveryMs / 1000, 1)} s (${posts} POSTs)`,
        goal: '-',
        met: posts === hostCount,
      },
      {
        figure: `API p99 during the delivery / before, ${connections} connections`,
        value: `${fmt(p99Ratio)} (${loaded.p99} vs ${before.p99} ms)`,
        goal: `<= ${GOAL_P99}`,
        met: p99Ratio <= GOAL_P99 && failures === 0,
      },
      {
        figure: 'incoming signed activities verified and applied per second (one server process)',
        value: `${fmt(incomingResult.perSecond, 0)}/s (${incomingResult.accepted} accepted, ${incomingResult.refused} refused)`,
        goal: '-',
        met: incomingResult.refused === 0,
      },
    ];
    report('federation', `npm run bench -- federation --followers ${followers} --hosts ${hostCount} --connections ${connections}`, [
      `One new public video delivered to ${followers.toLocaleString('en')} remote followers on ${hostCount} local fake servers (one shared inbox each), API and worker in one process (worker concurrency 1), PostgreSQL server; then ${incoming} signed Likes posted to the shared inbox over ${connections} connections.`,
      '',
      '| figure | value | goal | met |',
      '|---|---|---|---|',
      `| delivery: publish -> every host received the Create | ${fmt(deliveryMs / 1000, 1)} s (${posts} POSTs for ${followers} followers) | - | ${posts === hostCount ? 'yes' : 'no'} |`,
      `| API p99 before (home feed + watch GET, ${connections} connections, 10 s) | ${before.p99} ms (${fmt(before.requestsPerSec, 0)} req/s) | - | - |`,
      `| API p99 during the delivery (same load) | ${loaded.p99} ms (${fmt(loaded.requestsPerSec, 0)} req/s) | - | - |`,
      `| p99 during / before | ${fmt(p99Ratio)} | <= ${GOAL_P99} | ${p99Ratio <= GOAL_P99 ? 'yes' : 'no'} |`,
      `| errors / non-2xx during | ${loaded.errors} / ${loaded.non2xx} | 0 / 0 | ${failures === 0 ? 'yes' : 'no'} |`,
      `| incoming activities verified per second | ${fmt(incomingResult.perSecond, 0)}/s | - | ${incomingResult.refused === 0 ? 'yes' : 'no'} |`,
    ], figures);
  } finally {
    await stop(server);
    await db.end();
    for (const h of hosts) h.server.close();
  }
}

await main();
