import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '../src/db/client.ts';
import { isDatabaseUnavailable } from '../src/db/errors.ts';
import { migrate } from '../src/db/migrate.ts';
import { AccessTokens } from '../src/identity/access-token.ts';
import { LocalStorage } from '../src/storage/local-storage.ts';
import { originalKey } from '../src/storage/media-keys.ts';
import type { AppContext } from '../src/context.ts';
import { createUser, createVideo, makeClip, TEST_ENV } from '../test/harness.ts';
import { adminQuery, freePort, scratchDatabase, startProcess, type ServerProcess } from '../test/processes.ts';
import { workerCrashScenario } from '../test/worker-crash.ts';

/**
 * Faults with real processes on the PostgreSQL server: the database dropping every connection,
 * the API process SIGKILLed mid-upload, a worker SIGKILLed mid-transcode.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let tmp: string;
let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
/** A context on the scratch database for seeding rows and signing tokens (the app runs elsewhere). */
let seed: Pick<AppContext, 'db' | 'tokens'> & { close(): Promise<void> };
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'glimpse-faults-'));
  scratch = await scratchDatabase();
  const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
  await migrate(database);
  seed = { db: database.db, tokens: new AccessTokens(TEST_ENV.JWT_SECRET, 900), close: () => database.close() };
});
afterAll(async () => {
  await seed?.close();
  await scratch?.drop();
  await rm(tmp, { recursive: true, force: true });
});

async function serve(dataDir: string, port: number): Promise<ServerProcess> {
  const server = startProcess('serve', { DATABASE_URL: scratch.url, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), WORKER_ENABLED: 'false' });
  await server.ready;
  return server;
}

describe('PostgreSQL drops every connection, then comes back', () => {
  it('answers JSON 503 while it is down and recovers without a restart', async () => {
    const owner = await createUser(seed);
    const video = await createVideo(seed, owner);
    const auth = { authorization: `Bearer ${await seed.tokens.sign({ id: owner.id, userName: owner.userName })}` };
    const port = await freePort();
    const server = await serve(path.join(tmp, 'drop'), port);
    const base = `http://127.0.0.1:${port}/api/v1`;
    const phases = { outageStart: 0, outageEnd: 0 };
    const results: { at: number; status: number; json: boolean }[] = [];
    const socketErrors: string[] = [];
    const started = Date.now();
    // Reads and a write transaction (the like toggle holds one client over several statements).
    const requests = [
      () => fetch(`${base}/videos`),
      () => fetch(`${base}/videos/${video.id}`),
      () => fetch(`${base}/likes/video/${video.id}/like`, { method: 'POST', headers: auth }),
    ];
    const client = async (n: number) => {
      for (let i = n; Date.now() - started < 6000; i++) {
        try {
          const res = await requests[i % requests.length]!();
          const body = await res.text();
          results.push({ at: Date.now() - started, status: res.status, json: body.startsWith('{') && /json/.test(res.headers.get('content-type') ?? '') });
        } catch (err) {
          socketErrors.push(String(err));
        }
      }
    };
    const traffic = Promise.all([0, 1, 2, 3, 4, 5].map(client));
    try {
      await sleep(1500);
      phases.outageStart = Date.now() - started;
      await adminQuery(`ALTER DATABASE ${scratch.name} ALLOW_CONNECTIONS false`);
      const killed = await adminQuery<{ pid: number }>(
        // In the select list, so that only the filtered rows are terminated (never this session or another database's).
        'SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [scratch.name],
      );
      expect(killed.length).toBeGreaterThan(0);
      await sleep(1500);
      await adminQuery(`ALTER DATABASE ${scratch.name} ALLOW_CONNECTIONS true`);
      phases.outageEnd = Date.now() - started;
      await traffic;
    } finally {
      await adminQuery(`ALTER DATABASE ${scratch.name} ALLOW_CONNECTIONS true`);
    }

    expect(socketErrors).toEqual([]);
    expect(results.filter((r) => !r.json)).toEqual([]);
    const before = results.filter((r) => r.at < phases.outageStart);
    const during = results.filter((r) => r.at >= phases.outageStart && r.at < phases.outageEnd);
    const after = results.filter((r) => r.at >= phases.outageEnd + 500);
    expect(before.every((r) => r.status < 500)).toBe(true);
    expect(during.filter((r) => r.status >= 500).every((r) => r.status === 503)).toBe(true);
    expect(during.some((r) => r.status === 503)).toBe(true);
    expect(after.length).toBeGreaterThan(20);
    expect(after.filter((r) => r.status >= 500)).toEqual([]);
    // Same process throughout.
    expect(server.child.exitCode).toBeNull();
    expect(server.output()).not.toMatch(/uncaught|unhandled error/i);
    await server.kill();
  }, 60_000);

  it('a backend killed while a transaction holds its client fails that transaction only; the pool recovers', async () => {
    // Between two statements the pool does not listen on the client: without db/client.ts's
    // listener this 'error' event is unhandled and ends the process.
    const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
    try {
      const failed = await database.db
        .transaction(async (tx) => {
          const [row] = await queryRows<{ pid: number }>(tx, sql`SELECT pg_backend_pid() AS pid`);
          await adminQuery('SELECT pg_terminate_backend($1)', [row!.pid]);
          await sleep(300);
          await tx.execute(sql`SELECT 1`);
        })
        .catch((err: unknown) => err);
      expect(isDatabaseUnavailable(failed)).toBe(true);
      expect(await queryRows(database.db, sql`SELECT 1 AS ok`)).toEqual([{ ok: 1 }]);
    } finally {
      await database.close();
    }
  });

  it('LISTEN: a killed listening connection is made again and hears every channel again; stopped, it is ended', async () => {
    const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 3 });
    const listeners = () =>
      adminQuery<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN fault_probe%'`, [scratch.name]);
    const heard: string[] = [];
    try {
      const stops = [
        await database.listen('fault_probe', (payload) => heard.push(payload)),
        await database.listen('fault_probe_other', (payload) => heard.push(`other:${payload}`)),
      ];
      const [first] = await listeners();
      await adminQuery('SELECT pg_terminate_backend($1)', [first!.pid]);
      await vi.waitFor(async () => expect((await listeners()).some((r) => r.pid !== first!.pid)).toBe(true), { timeout: 5000, interval: 100 });
      await database.exec(`NOTIFY fault_probe, 'after-reconnect'; NOTIFY fault_probe_other, 'too'`);
      await vi.waitFor(() => expect(heard).toEqual(['after-reconnect', 'other:too']), { timeout: 5000, interval: 100 });
      for (const stop of stops) await stop();
      await vi.waitFor(async () => expect(await listeners()).toEqual([]), { timeout: 5000, interval: 100 });
      expect(await queryRows(database.db, sql`SELECT 1 AS ok`)).toEqual([{ ok: 1 }]);
    } finally {
      await database.close();
    }
  });

  it("LISTEN takes none of the pool's connections: a pool of one answers while three channels are listened to", async () => {
    const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 1 });
    const heard: string[] = [];
    try {
      for (const channel of ['pool_probe_a', 'pool_probe_b', 'pool_probe_c']) await database.listen(channel, (p) => heard.push(`${channel}:${p}`));
      // With a pooled connection per listener, this statement waited for a connection that never came back.
      const [row] = await queryRows<{ listening: number }>(
        database.db,
        sql`SELECT count(*)::int AS listening FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN pool_probe%'`,
      );
      expect(row).toEqual({ listening: 1 });
      await database.exec(`NOTIFY pool_probe_c, 'heard'`);
      await vi.waitFor(() => expect(heard).toEqual(['pool_probe_c:heard']), { timeout: 5000, interval: 100 });
    } finally {
      await database.close();
    }
  });
});

/** One multipart upload chunk over HTTP; `cutAfter` bytes sent and then the socket is left hanging. */
function chunkRequest(
  port: number,
  token: string,
  q: { uniqueId: string; chunkNumber: number; totalChunks: number },
  chunk: Buffer,
  fields: Record<string, string> = {},
) {
  const boundary = `----glimpse${Date.now()}`;
  const head = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const payload = Buffer.concat([
    Buffer.from(`${head}--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="v.mp4"\r\nContent-Type: video/mp4\r\n\r\n`),
    chunk,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const query = new URLSearchParams({ uniqueId: q.uniqueId, chunkNumber: String(q.chunkNumber), totalChunks: String(q.totalChunks) });
  const req = httpRequest({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: `/api/v1/videos?${query}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': payload.length },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
  });
  answer.catch(() => {});
  return {
    send: () => {
      req.end(payload);
      return answer;
    },
    /** Sends only the first part of the body, as a client whose server dies mid-chunk. */
    sendPart: (bytes: number) => req.write(payload.subarray(0, bytes)),
    answer,
  };
}

describe('the API process SIGKILLed mid-upload', () => {
  it('restarts and resumes the upload to a byte-identical file', async () => {
    const dataDir = path.join(tmp, 'upload');
    const clip = await readFile(await makeClip(path.join(tmp, 'clip.mp4'), { width: 320, height: 240, seconds: 4 }));
    const size = 48 * 1024;
    const parts = Array.from({ length: Math.ceil(clip.length / size) }, (_, i) => clip.subarray(i * size, (i + 1) * size));
    expect(parts.length).toBeGreaterThan(3);
    const owner = await createUser(seed);
    const token = await seed.tokens.sign({ id: owner.id, userName: owner.userName });
    const q = (i: number) => ({ uniqueId: 'killed-mid-upload', chunkNumber: i, totalChunks: parts.length });

    const port = await freePort();
    let server = await serve(dataDir, port);
    const half = Math.floor(parts.length / 2);
    for (let i = 0; i < half; i++) expect((await chunkRequest(port, token, q(i), parts[i]!).send()).status).toBe(200);
    // The next chunk is half sent when the process dies.
    const cut = chunkRequest(port, token, q(half), parts[half]!);
    cut.sendPart(300 + Math.floor(parts[half]!.length / 2));
    await sleep(200);
    await server.kill('SIGKILL');
    await expect(cut.answer).rejects.toThrow();

    server = await serve(dataDir, port);
    try {
      const status = await fetch(`http://127.0.0.1:${port}/api/v1/videos/uploads/killed-mid-upload`, { headers: { authorization: `Bearer ${token}` } });
      const held = ((await status.json()) as { data: { receivedChunks: number[] } }).data.receivedChunks;
      // The chunk cut off mid-body was never recorded: only whole chunks count.
      expect(held).toEqual([...Array(half).keys()]);
      let videoId = '';
      for (let i = half; i < parts.length; i++) {
        const last = i === parts.length - 1;
        const res = await chunkRequest(port, token, q(i), parts[i]!, last ? { isLastChunk: 'true', title: 'Survived a crash' } : {}).send();
        expect(res.status, res.body).toBe(last ? 201 : 200);
        if (last) videoId = JSON.parse(res.body).data.video._id;
      }
      // Read as the server reads it: the local driver keeps the original as its chunks (ADR 025).
      const original = await new LocalStorage(path.join(dataDir, 'media')).getStream(originalKey(videoId));
      expect(sha(await buffer(original))).toBe(sha(clip));
    } finally {
      await server.kill();
    }
  }, 90_000);
});

describe('a worker process SIGKILLed mid-transcode', () => {
  // The same scenario as modules/transcode/transcode.test.ts, here on the PostgreSQL server.
  it('leaves the job to the next worker, which completes it', async () => {
    const other = await scratchDatabase();
    try {
      await workerCrashScenario(await mkdtemp(path.join(tmp, 'transcode-')), other.url);
    } finally {
      await other.drop();
    }
  }, 180_000);
});
