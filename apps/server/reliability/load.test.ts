import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { AccessTokens } from '../src/identity/access-token.ts';
import type { AppContext } from '../src/context.ts';
import { createTweet, createUser, createVideo, makeClip, TEST_ENV } from '../test/harness.ts';
import { counterMismatches } from '../test/invariants.ts';
import { startNginx, type NginxFront } from '../test/nginx.ts';
import { freePort, scratchDatabase, startProcess, type ServerProcess } from '../test/processes.ts';
import { startS3, type TestS3 } from '../test/s3.ts';

/**
 * Two API processes behind nginx (round-robin) and two workers on one PostgreSQL database, media in
 * S3 (s3rver): 200 concurrent users with a mixed workload for LOAD_SECONDS (default 60), and
 * meanwhile UPLOADERS accounts uploading videos whose chunks alternate between the two API
 * processes (ADR 018: chunks live in the shared storage). No error at all, every upload ready,
 * no chunk left in the storage, latency percentiles written to bench/results/load.md, a login rate
 * limit that holds across both processes together, and every counter equal to its rows afterwards.
 */
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const USERS = Number(process.env.LOAD_USERS ?? 200);
const LOGIN_LIMIT = 25;
const UPLOADERS = 4;
const UPLOADS_EACH = 2;
/** Chunks per upload (a small clip cut into this many pieces), two in flight at a time. */
const CHUNKS = 4;
const RESULTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bench/results/load.md');
const WORDS = ['river', 'mountain', 'city', 'night', 'forest', 'ocean', 'desert', 'snow', 'market', 'train'];

let tmp: string;
let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let database: Database;
let s3: TestS3;
let nginx: NginxFront | undefined;
const processes: ServerProcess[] = [];
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'glimpse-load-'));
  s3 = await startS3();
  scratch = await scratchDatabase();
  database = await openDatabase({ databaseUrl: scratch.url, poolSize: 4 });
  await migrate(database);
});
afterAll(async () => {
  await nginx?.stop();
  await Promise.all(processes.map((p) => p.kill()));
  await s3?.close();
  await database?.close();
  await scratch?.drop();
  await rm(tmp, { recursive: true, force: true });
});

const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0);

it(`serves ${USERS} concurrent mixed users and uploads over two API processes behind nginx, two workers and S3 for ${SECONDS}s without an error; counts equal the rows`, async () => {
  // The catalogue: 10 channels with 5 videos and a tweet each, and the users who browse them.
  const ctx = { db: database.db } as AppContext;
  const tokens = new AccessTokens(TEST_ENV.JWT_SECRET, 3600);
  const channels = await Promise.all(Array.from({ length: 10 }, () => createUser(ctx)));
  const videoIds: string[] = [];
  const tweetIds: string[] = [];
  for (const [i, channel] of channels.entries()) {
    for (let j = 0; j < 5; j++) {
      const title = `${WORDS[(i + j) % WORDS.length]} ${WORDS[(i * 3 + j) % WORDS.length]} trip ${i}-${j}`;
      videoIds.push((await createVideo(ctx, channel, { title, duration: 20 + i * 30 + j })).id);
    }
    tweetIds.push((await createTweet(ctx, channel)).id);
  }
  const users = await Promise.all(
    Array.from({ length: USERS }, async () => {
      const user = await createUser(ctx);
      return { user, auth: { authorization: `Bearer ${await tokens.sign({ id: user.id, userName: user.userName })}` } };
    }),
  );

  const env = {
    DATABASE_URL: scratch.url,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMITS_ENABLED: 'true',
    RATE_LIMIT_LOGIN: String(LOGIN_LIMIT),
    // The 200 simulated users all come from one address (the nginx front on loopback), and the comment
    // limit counts per address: at the default they would share one person's allowance.
    RATE_LIMIT_COMMENT: '100000',
    WORKER_ENABLED: 'false',
    // Shared media storage: each process has its own DATA_DIR (scratch space only).
    S3_BUCKET: 'media',
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  };
  const ports = [await freePort(), await freePort()];
  for (const [i, port] of ports.entries()) processes.push(startProcess('serve', { ...env, PORT: String(port), DATA_DIR: path.join(tmp, `api${i}`) }));
  for (const i of [0, 1]) processes.push(startProcess('worker', { ...env, LOG_LEVEL: 'info', DATA_DIR: path.join(tmp, `worker${i}`) }));
  await Promise.all(processes.map((p) => p.ready));
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  nginx = await startNginx({ root: tmp, dataDir: path.join(tmp, 'api0'), upstreamPort: ports[0]!, moreUpstreamPorts: [ports[1]!], httpPort, httpsPort });
  /** Each API process itself (the login probe, the uploads' alternating chunks) and the nginx front (everything else). */
  const bases = ports.map((p) => `http://127.0.0.1:${p}/api/v1`);
  const front = `http://127.0.0.1:${httpPort}/api/v1`;
  const clip = await readFile(await makeClip(path.join(tmp, 'clip.mp4'), { width: 320, height: 240, seconds: 2 }));
  const uploaders = await Promise.all(
    Array.from({ length: UPLOADERS }, async () => {
      const user = await createUser(ctx);
      return { user, auth: { authorization: `Bearer ${await tokens.sign({ id: user.id, userName: user.userName })}` } };
    }),
  );

  /** Comments (and their video) that exist, for replies and comment reactions. */
  const comments: { id: string; video: string }[] = [];
  const latencies = new Map<string, number[]>();
  const failures: string[] = [];
  /** 503s (Retry-After) on upload chunks, sent again once as the web client does; reported, not hidden. */
  const retried: string[] = [];

  async function request(action: string, method: 'GET' | 'POST', url: string, auth?: object, body?: object | FormData, base = front, retryUnavailable = false): Promise<ReturnType<typeof JSON.parse>> {
    const started = performance.now();
    try {
      const json = body && !(body instanceof FormData);
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { ...auth, ...(json ? { 'content-type': 'application/json' } : {}) },
        body: json ? JSON.stringify(body) : body,
      });
      const text = await res.text();
      const ms = performance.now() - started;
      (latencies.get(action) ?? latencies.set(action, []).get(action)!).push(ms);
      if (res.status === 503 && retryUnavailable) {
        retried.push(`${method} ${url} -> 503 ${text.slice(0, 200)}`);
        await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
        return request(action, method, url, auth, body, base);
      }
      if (!res.ok) failures.push(`${method} ${url} -> ${res.status} ${text.slice(0, 200)}`);
      return res.ok ? JSON.parse(text).data : undefined;
    } catch (err) {
      failures.push(`${method} ${url} -> ${String(err)}`);
      return undefined;
    }
  }

  const actions: [number, (u: (typeof users)[number]) => Promise<unknown> | undefined][] = [
    [20, () => request('home', 'GET', `/videos?page=${1 + Math.floor(Math.random() * 3)}&limit=10`)],
    [12, () => request('search', 'GET', `/videos?query=${pick(WORDS)}&sortBy=${pick(['relevance', 'views', 'uploadDate'])}`)],
    [
      20,
      async (u) => {
        const id = pick(videoIds);
        await request('watch', 'GET', `/videos/${id}`, u.auth);
        await request('comments', 'GET', `/comments/video/${id}?page=1&limit=10`, u.auth);
        await request('views', 'POST', `/videos/${id}/views`, u.auth, { position: 5 });
      },
    ],
    [5, () => request('similar', 'GET', `/videos/${pick(videoIds)}/similar`)],
    [12, (u) => request('react', 'POST', `/likes/video/${pick(videoIds)}/${pick(['like', 'dislike'])}`, u.auth)],
    [6, (u) => (comments.length ? request('react', 'POST', `/likes/comment/${pick(comments).id}/${pick(['like', 'dislike'])}`, u.auth) : undefined)],
    [3, (u) => request('react', 'POST', `/likes/tweet/${pick(tweetIds)}/${pick(['like', 'dislike'])}`, u.auth)],
    [
      8,
      async (u) => {
        const parent = comments.length && Math.random() < 0.4 ? pick(comments) : undefined;
        const video = parent?.video ?? pick(videoIds);
        const made = await request('comment', 'POST', `/comments/video/${video}${parent ? `/${parent.id}` : ''}`, u.auth, { content: `${pick(WORDS)}!` });
        if (made?._id) comments.push({ id: made._id, video });
      },
    ],
    [6, (u) => request('subscribe', 'POST', `/subscriptions/toggle/${pick(channels).id}`, u.auth)],
    [4, () => request('channel', 'GET', `/users/channel/${pick(channels).userName}`)],
    [4, (u) => request('feed', 'GET', '/subscriptions', u.auth)],
  ];
  const totalWeight = actions.reduce((n, [w]) => n + w, 0);
  const chooseAction = () => {
    let r = Math.random() * totalWeight;
    for (const [w, run] of actions) if ((r -= w) < 0) return run;
    return actions[0]![1];
  };

  // Meanwhile, the login limit is hit alternately on both processes: N in total get through.
  const loginCodes: number[] = [];
  const loginProbe = async () => {
    for (let i = 0; i < LOGIN_LIMIT * 2; i++) {
      const res = await fetch(`${bases[i % 2]}/auths/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' }),
      });
      await res.text();
      loginCodes.push(res.status);
    }
  };

  // Uploads: chunk i goes to API process i % 2, two in flight; the last one after the others.
  const uploaded: { id: string; auth: object }[] = [];
  const size = Math.ceil(clip.length / CHUNKS);
  const upload = async (u: (typeof uploaders)[number], n: number) => {
    const uniqueId = `load-${u.user.id.slice(0, 8)}-${n}`;
    const send = (i: number, last: boolean) => {
      const form = new FormData();
      form.append('video', new Blob([clip.subarray(i * size, (i + 1) * size)]), 'clip.mp4');
      form.append('isLastChunk', String(last));
      if (last) form.append('title', `Load upload ${n}`);
      return request('upload chunk', 'POST', `/videos?uniqueId=${uniqueId}&chunkNumber=${i}&totalChunks=${CHUNKS}`, u.auth, form, bases[i % 2], true);
    };
    await Promise.all([0, 1].map(async (lane) => {
      for (let i = lane; i < CHUNKS - 1; i += 2) await send(i, false);
    }));
    const made = await send(CHUNKS - 1, true);
    if (made?.video?._id) uploaded.push({ id: made.video._id, auth: u.auth });
  };

  const loadBefore = os.loadavg()[0]!;
  const deadline = Date.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all([
    loginProbe(),
    ...uploaders.map(async (u) => {
      for (let n = 0; n < UPLOADS_EACH; n++) await upload(u, n);
    }),
    ...users.map(async (u) => {
      while (Date.now() < deadline) await chooseAction()(u);
    }),
  ]);
  const elapsed = (performance.now() - started) / 1000;
  // The two workers transcode the uploads (from S3); each video becomes ready.
  const statuses = async () =>
    Promise.all(uploaded.map(async (v) => ((await (await fetch(`${front}/videos/${v.id}`, { headers: v.auth as Record<string, string> })).json()) as { data?: { video?: { status?: string } } }).data?.video?.status));
  const readyBy = Date.now() + 240_000;
  let states = await statuses();
  while (states.some((st) => st !== 'ready' && st !== 'failed') && Date.now() < readyBy) {
    await new Promise((r) => setTimeout(r, 1000));
    states = await statuses();
  }
  const chunksLeft = await s3.storage.bytesUnder('uploads');
  const alive = processes.map((p) => p.child.exitCode === null);
  await nginx.stop();
  nginx = undefined;
  await Promise.all(processes.map((p) => p.kill()));

  const all = [...latencies.values()].flat().sort((a, b) => a - b);
  const row = (name: string, values: number[]) => {
    const s = [...values].sort((a, b) => a - b);
    return `| ${name} | ${s.length} | ${percentile(s, 50).toFixed(1)} | ${percentile(s, 95).toFixed(1)} | ${percentile(s, 99).toFixed(1)} | ${(s.at(-1) ?? 0).toFixed(1)} |`;
  };
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const pgVersion = execFileSync('psql', ['--version']).toString().trim();
  const report = [
    '# Load: two API processes behind nginx, two workers, one PostgreSQL, S3',
    '',
    `Run ${new Date().toISOString()} on ${os.cpus().length} cores (${cpu}), Node ${process.version}, ${pgVersion}; load generator on the same machine`,
    `(1-minute load average before the run: ${loadBefore.toFixed(1)}).`,
    '',
    `Command: \`LOAD_SECONDS=${SECONDS} npm run test:reliability\` (apps/server/reliability/load.test.ts).`,
    '',
    `${USERS} concurrent users, each looping over a weighted mix (browse home, search, watch = video + comments + view,`,
    'similar, like/dislike toggles on videos, comments and tweets, comment and reply, subscribe toggle, channel page,',
    `subscriptions feed) for ${SECONDS} s, through nginx taking turns over the two API processes; two workers; media in S3 (s3rver).`,
    '',
    `- requests: ${all.length} in ${elapsed.toFixed(1)} s = **${(all.length / elapsed).toFixed(0)} requests/s**`,
    `- errors (5xx, 4xx, connection errors): **${failures.length}**; upload chunks answered 503 (Retry-After) and sent again once, as the web client does: ${retried.length}`,
    `- uploads: ${uploaded.length} of ${UPLOADERS * UPLOADS_EACH} finished (${CHUNKS} chunks each, alternating between the two API processes, media in S3), ${states.filter((st) => st === 'ready').length} ready after transcoding by two workers`,
    `- latency overall: p50 ${percentile(all, 50).toFixed(1)} ms, p95 ${percentile(all, 95).toFixed(1)} ms, **p99 ${percentile(all, 99).toFixed(1)} ms**`,
    `- login limit ${LOGIN_LIMIT} per window, hit ${LOGIN_LIMIT * 2} times alternately on both processes: ${loginCodes.filter((c) => c !== 429).length} got through, ${loginCodes.filter((c) => c === 429).length} answered 429`,
    '',
    '| action | requests | p50 ms | p95 ms | p99 ms | max ms |',
    '|---|---|---|---|---|---|',
    ...[...latencies.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, values]) => row(name, values)),
    row('all', all),
    '',
    `${USERS} closed-loop users with no think time keep every core busy: latency here is mostly queueing`,
    '(mean latency ≈ users / throughput). The API benchmark (`npm run bench`) measures latency at fixed connection counts.',
    '',
  ].join('\n');
  await mkdir(path.dirname(RESULTS), { recursive: true });
  await writeFile(RESULTS, report);
  console.log(report);

  expect(alive).toEqual([true, true, true, true]);
  expect(failures.slice(0, 20)).toEqual([]);
  expect(uploaded).toHaveLength(UPLOADERS * UPLOADS_EACH);
  expect(states).toEqual(uploaded.map(() => 'ready'));
  expect(chunksLeft).toBe(0);
  expect(all.length).toBeGreaterThan(USERS);
  expect(loginCodes.filter((c) => c !== 429)).toEqual(Array(LOGIN_LIMIT).fill(401));
  expect(loginCodes.filter((c) => c === 429)).toHaveLength(LOGIN_LIMIT);
  expect(await counterMismatches(database.db)).toEqual([]);
}, (SECONDS + 420) * 1000);
