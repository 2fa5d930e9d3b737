/**
 * Upload: a 500 MB file sent in 3 MB chunks over loopback through POST /api/v1/videos (the
 * spec's resumable protocol, IN_FLIGHT chunks at a time like the web client) vs a raw local disk
 * write of the same bytes in the same 3 MB pieces, and vs the same chunks posted to a bare
 * node:http + multipart-parser server (bare-upload-server.ts: what this machine's Node and loopback
 * reach at all), and vs PeerTube's resumable upload (peertube-upload-server.ts: the @uploadx/core
 * handler with PeerTube's options) sent as PeerTube's web client sends it, in one run; Glimpse and
 * the bare server in alternating pairs, each server's process CPU beside its time. Chunk
 * ingestion (every chunk but the last) and the last chunk (the chunks linked as the original + mp4
 * box check + ffprobe + rows) are timed apart.
 * Usage: npm run bench -- upload [--mb 500]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { CHUNK_BYTES } from '@glimpse/contract';
import { wrapPool } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { users } from '../apps/server/src/db/schema.ts';
import { newId } from '../apps/server/src/lib/ids.ts';
import { AccessTokens } from '../apps/server/src/identity/access-token.ts';
import { clipJob } from '@glimpse/media';
import { benchDatabaseUrl, ensureDatabase, fmt, freePort, loadNow, mb, media, median, postgresCpuSeconds, processCpuSeconds, ratio, report, SERVER_NODE_FLAGS, startGlimpse, stop, waitFor, type Figure } from './lib.ts';

const { values } = parseArgs({ options: { mb: { type: 'string', default: '500' } } });
const SIZE = Number(values.mb) * 1024 * 1024;
/** Chunks in flight at once, as the web client sends them (apps/web chunked-upload.ts). */
const IN_FLIGHT = 4;
/** Alternating Glimpse / bare server pairs (odd: the median is one of the runs). */
const ROUNDS = 5;
const WARM_CHUNKS = 30;
/** Chunks sent to a server just before each of its timed runs (see `timed`). */
const BUSY_CHUNKS = 10;
/** ADR 018's goal against the disk, and issue 37's against the bare server (chunks; the whole upload). */
const GOAL = 0.5;
const GOAL_INGEST_BARE = 0.9;
const GOAL_E2E_BARE = 0.6;
/** Issue 37's goal: Glimpse's whole upload at >= 1.5x PeerTube's resumable upload speed. */
const GOAL_PEERTUBE = 1.5;
/**
 * PeerTube's web client (client/src/app/.../video-upload.component.ts: ngx-uploadx with
 * `maxChunkSize: client.videos.resumable_upload.max_chunk_size`, null by default, and `chunkSize`
 * undefined: "auto") sizes its chunks with ngx-uploadx's DynamicChunk (src/uploadx/lib/dynamic-chunk.ts):
 * 1 MiB first, doubled whenever a chunk would take under 8 s at the measured speed, halved over
 * 24 s, never under 256 KiB; one PUT at a time, `Content-Range: bytes a-b/size`, the next offset
 * from the 308's `Range` (uploaderx.ts). Browsers scale on every progress event of a chunk; here
 * once per chunk (its whole time), so the chunks grow no faster than a browser's would.
 */
const PT_FIRST_CHUNK = 1024 * 1024;
const PT_MIN_CHUNK = 256 * 1024;
const PT_MIN_CHUNK_SECONDS = 8;
const PT_MAX_CHUNK_SECONDS = 24;
const PT_ROUTE = '/api/v1/videos/upload-resumable';
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123';
const root = path.resolve('bench/tmp/upload');
const dataDir = path.join(root, 'data');

/**
 * A real mp4 of SIZE bytes: a 2 s clip (moov first) followed by a top-level `free` box filling
 * the rest, so the server's box check and ffprobe accept it without a 500 MB encode.
 */
async function makeSource(): Promise<Buffer> {
  const clip = path.join(root, 'clip.mp4');
  await media.engine.run(
    clipJob({ out: clip, seconds: 2, width: 640, height: 360, fps: 30, container: 'mp4', muxerOptions: { movflags: '+faststart' }, audio: false }),
  );
  const head = readFileSync(clip);
  const free = Buffer.alloc(SIZE - head.length);
  for (let i = 8; i < free.length; i += 4096) free[i] = i & 0xff; // not all zeroes (no sparse tricks)
  free.writeUInt32BE(free.length, 0);
  free.write('free', 4, 'latin1');
  return Buffer.concat([head, free]);
}

/** One chunk as multipart/form-data, body written in three pieces (no 3 MB copy). */
function postChunk(port: number, token: string, q: string, chunk: Buffer, fields: Record<string, string>): Promise<{ status: number; body: string }> {
  const boundary = `----bench${newId().replace(/-/g, '')}`;
  const fieldParts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('');
  const head = Buffer.from(`${fieldParts}--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="video.mp4"\r\nContent-Type: video/mp4\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/v1/videos?${q}`,
        agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + chunk.length + tail.length },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.write(head);
    req.write(chunk);
    req.end(tail);
  });
}
let agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });

/** One request with an optional body; the answer's status, headers and body. */
function send(port: number, method: string, target: string, headers: Record<string, string>, body?: Buffer): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: target, agent, headers: { ...headers, 'content-length': body?.length ?? 0 } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The next chunk size of ngx-uploadx's DynamicChunk after a chunk sent at `bytesPerSecond`. */
function scaleChunk(size: number, bytesPerSecond: number): number {
  const seconds = size / bytesPerSecond;
  if (seconds < PT_MIN_CHUNK_SECONDS) return size * 2;
  if (seconds > PT_MAX_CHUNK_SECONDS) return Math.max(PT_MIN_CHUNK, size / 2);
  return size;
}

/**
 * A file through PeerTube's resumable protocol as its web client sends it: the init POST (JSON
 * metadata, X-Upload-Content-Length/-Type), then one PUT at a time of growing chunks; seconds
 * taken and the chunk sizes sent.
 */
async function peertubeUpload(port: number, file: Buffer): Promise<{ seconds: number; chunks: number[] }> {
  const t0 = performance.now();
  const auth = { authorization: `Bearer ${token}` };
  const init = await send(
    port,
    'POST',
    PT_ROUTE,
    { ...auth, 'content-type': 'application/json; charset=utf-8', 'x-upload-content-length': String(file.length), 'x-upload-content-type': 'video/mp4' },
    Buffer.from(JSON.stringify({ name: 'Bench upload', channelId: 1, filename: 'video.mp4' })),
  );
  if (init.status !== 201 || !init.headers.location) throw new Error(`PeerTube init: ${init.status} ${init.body}`);
  const target = new URL(init.headers.location, `http://127.0.0.1:${port}${PT_ROUTE}`);
  const chunks: number[] = [];
  let offset = 0;
  let size = PT_FIRST_CHUNK;
  while (offset < file.length) {
    const end = Math.min(offset + size, file.length);
    const t = performance.now();
    const r = await send(
      port,
      'PUT',
      target.pathname + target.search,
      { ...auth, 'content-type': 'application/octet-stream', 'content-range': `bytes ${offset}-${end - 1}/${file.length}` },
      file.subarray(offset, end),
    );
    const done = end === file.length;
    if (r.status !== (done ? 200 : 308)) throw new Error(`PeerTube PUT ${offset}-${end - 1}: ${r.status} ${r.body}`);
    chunks.push(end - offset);
    size = scaleChunk(size, (end - offset) / ((performance.now() - t) / 1000));
    offset = done ? end : Number(/-(\d+)$/.exec(String(r.headers.range))?.[1] ?? -1) + 1;
    if (!done && offset !== end) throw new Error(`PeerTube PUT: server holds ${offset} bytes, ${end} sent`);
  }
  return { seconds: (performance.now() - t0) / 1000, chunks };
}

/**
 * The same bytes, in the same 3 MB pieces, written to a file on the same disk; `durable` waits
 * for fsync (the disk itself), else the write ends in the page cache (memory speed), as Glimpse's do.
 */
async function rawWrite(source: Buffer, durable: boolean): Promise<number> {
  const file = path.join(dataDir, 'raw.bin');
  const t0 = performance.now();
  const fh = await open(file, 'w');
  for (let off = 0; off < source.length; off += CHUNK_BYTES) await fh.write(source, off, Math.min(CHUNK_BYTES, source.length - off));
  if (durable) await fh.sync();
  await fh.close();
  const seconds = (performance.now() - t0) / 1000;
  rmSync(file);
  return seconds;
}

/** Sends chunks 0..count-1 with IN_FLIGHT in flight (the order the web client uses); seconds taken. */
async function sendChunks(port: number, q: (i: number) => string, count: number): Promise<number> {
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      for (let i = next++; i < count; i = next++) {
        const r = await postChunk(port, token, q(i), chunkAt(i), {});
        if (r.status !== 200) throw new Error(`chunk ${i}: ${r.status} ${r.body}`);
      }
    }),
  );
  return (performance.now() - t0) / 1000;
}

/** One server's time, process CPU and PostgreSQL's CPU meanwhile for one upload. */
interface Timed {
  seconds: number;
  cpuSeconds: number;
  postgresCpuSeconds: number;
}

/**
 * Runs `work` timing it and the CPU that the process `pid` spent meanwhile, every run from the
 * same state: nothing left to write back, and the memory the run's bytes will go into touched
 * lately. On this virtual machine, 500 MB written into memory that held a file deleted moments
 * ago took 0.11-0.14 s, into memory not touched for a few seconds 0.5-1.1 s (the host takes freed
 * memory back). Without this the bare server, which deletes its files, ran at 0.45-0.74 s after a
 * bare run and 1.24-1.62 s after a Glimpse one; a long-running server's page cache reuses its own
 * memory, so the warm state is the one to measure.
 */
async function timed(pid: number, work: () => Promise<unknown>, warm?: () => Promise<unknown>): Promise<Timed> {
  execFileSync('sync');
  const scratch = path.join(root, 'warm.bin');
  const fd = openSync(scratch, 'w');
  for (let off = 0; off < source.length * 1.25; off += CHUNK_BYTES) writeSync(fd, chunkAt(0));
  closeSync(fd);
  rmSync(scratch);
  // Fresh connections: a server closes a keep-alive connection idle for 5 s (the bare server's
  // default) while the other server's run, the raw writes or PeerTube's run go on.
  agent.destroy();
  agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  // A server idle for a few seconds gives its heap's pages back, and the host takes them: the run
  // after it paid their faults (Glimpse, whose heap is the larger, 2.0-2.7 ms of CPU per MB right
  // after its previous run, 3.2-3.8 after the other server's). A busy server is what is measured.
  await warm?.();
  const cpu0 = processCpuSeconds(pid);
  const pg0 = postgresCpuSeconds();
  const t0 = performance.now();
  await work();
  return { seconds: (performance.now() - t0) / 1000, cpuSeconds: processCpuSeconds(pid) - cpu0, postgresCpuSeconds: postgresCpuSeconds() - pg0 };
}

/**
 * A plain server's ingestion of every chunk, the last one too (its files removed after): for the
 * bare server and the framework alone the upload is over when its last part is on disk, so this
 * is also their end to end.
 */
async function plainRun(round: number, server: ChildProcess, serverPort: number, dir: string): Promise<Timed> {
  const run = await timed(
    server.pid!,
    () => sendChunks(serverPort, (i) => `round=${round}&chunk=${i}`, total),
    () => sendChunks(serverPort, (i) => `round=${round}&warm=${i}`, BUSY_CHUNKS),
  );
  clearFolder(dir);
  return run;
}

const bareRun = (round: number) => plainRun(round, bare, barePort, bareDir);
/** The same for the framework alone (Fastify and its multipart plugin, nothing of Glimpse's). */
const frameworkRun = (round: number) => plainRun(round, framework, frameworkPort, frameworkDir);

/** A bare server's files go (its folder stays: it was made at its start). */
function clearFolder(dir: string): void {
  for (const f of readdirSync(dir)) rmSync(path.join(dir, f));
}

/** Glimpse's upload of the whole file: the chunks but the last (ingestion), then the last one. */
async function glimpseRun(round: number): Promise<{ ingest: Timed; finish: number }> {
  const uniqueId = `bench-${Date.now()}-${round}`;
  const ingest = await timed(
    server.pid!,
    () => sendChunks(port, (i) => `uniqueId=${uniqueId}&chunkNumber=${i}&totalChunks=${total}`, total - 1),
    () => sendChunks(port, (i) => `uniqueId=warm&chunkNumber=${i}&totalChunks=${total}`, BUSY_CHUNKS),
  );
  const t1 = performance.now();
  const last = await postChunk(port, token, `uniqueId=${uniqueId}&chunkNumber=${total - 1}&totalChunks=${total}`, chunkAt(total - 1), { isLastChunk: 'true', title: 'Bench upload' });
  if (last.status !== 201) throw new Error(`last chunk: ${last.status} ${last.body}`);
  const finish = (performance.now() - t1) / 1000;
  // The original's bytes (its chunks' names went with the upload), as the bare server's files go.
  rmSync(path.join(dataDir, 'originals'), { recursive: true, force: true });
  return { ingest, finish };
}

/** PeerTube's resumable upload of the whole file (after a warm-up upload of 8 MiB), its files removed after. */
async function peertubeRun(): Promise<{ seconds: number; chunks: number[] }> {
  const ptDir = path.join(dataDir, 'peertube');
  const server = spawn(process.execPath, ['--import', 'tsx', 'bench/peertube-upload-server.ts', String(peertubePort), ptDir], { stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await waitFor(`http://127.0.0.1:${peertubePort}/`);
    await peertubeUpload(peertubePort, source.subarray(0, 8 * 1024 * 1024));
    let chunks: number[] = [];
    const run = await timed(server.pid!, async () => ({ chunks } = await peertubeUpload(peertubePort, source)));
    return { seconds: run.seconds, chunks };
  } finally {
    await stop(server);
    rmSync(ptDir, { recursive: true, force: true });
  }
}

const port = await freePort();
const barePort = await freePort();
const frameworkPort = await freePort();
const peertubePort = await freePort();
rmSync(root, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
const source = await makeSource();
writeFileSync(path.join(root, 'size.txt'), String(source.length));
const url = await ensureDatabase(benchDatabaseUrl());
const database = wrapPool(new pg.Pool({ connectionString: url, max: 1 }));
await migrate(database);
const userId = newId();
const userName = `bench${Date.now()}`;
await database.db.insert(users).values({ id: userId, userName, fullName: 'Bench Uploader', email: `${userName}@bench.local`, passwordHash: 'x', emailVerifiedAt: new Date() });
const token = await new AccessTokens(JWT_SECRET, 3600).sign({ id: userId, userName });
const total = Math.ceil(source.length / CHUNK_BYTES);
const chunkAt = (i: number) => source.subarray(i * CHUNK_BYTES, Math.min(source.length, (i + 1) * CHUNK_BYTES));
const bareDir = path.join(dataDir, 'bare');
const bare = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', 'bench/bare-upload-server.ts', String(barePort), bareDir], { stdio: ['ignore', 'ignore', 'inherit'] });
const frameworkDir = path.join(dataDir, 'framework');
const framework = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', 'bench/framework-upload-server.ts', String(frameworkPort), frameworkDir], { stdio: ['ignore', 'ignore', 'inherit'] });
const server = startGlimpse(port, { DATABASE_URL: url, DATA_DIR: dataDir, JWT_SECRET });
try {
  await waitFor(`http://127.0.0.1:${barePort}/`);
  await waitFor(`http://127.0.0.1:${frameworkPort}/`);
  await waitFor(`http://127.0.0.1:${port}/api/v1/health`);
  // Warm-up, as a server that has run for a while is (the JIT has compiled its hot paths): 90 MB
  // to each; Glimpse's upload is left unfinished.
  await sendChunks(barePort, (i) => `warm=${i}`, WARM_CHUNKS);
  await sendChunks(frameworkPort, (i) => `warm=${i}`, WARM_CHUNKS);
  await sendChunks(port, (i) => `uniqueId=warm&chunkNumber=${i}&totalChunks=${total}`, WARM_CHUNKS);
  clearFolder(bareDir);
  clearFolder(frameworkDir);

  const peertubeBefore = await peertubeRun();
  const loadPeertubeBefore = loadNow();
  // Raw writes vary a lot on a shared machine: the best of three of each kind is the disk's speed.
  const best = async (durable: boolean) => Math.min(...[await rawWrite(source, durable), await rawWrite(source, durable), await rawWrite(source, durable)]);
  const raw = await best(false);
  const synced = await best(true);

  // Glimpse and the bare server in alternating pairs, the framework alone between them: the
  // machine's speed drifts (the same bare run took 0.45 s and 1.51 s in one run), so each round's
  // ratios compare neighbouring runs.
  const rounds: { bare: Timed; framework: Timed; glimpse: { ingest: Timed; finish: number }; load: string }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const bareFirst = r % 2 === 0;
    const first = bareFirst ? await bareRun(r) : undefined;
    const between = bareFirst ? await frameworkRun(r) : undefined;
    const glimpse = await glimpseRun(r);
    const fw = between ?? (await frameworkRun(r));
    rounds.push({ bare: first ?? (await bareRun(r)), framework: fw, glimpse, load: loadNow() });
  }
  const peertubeAfter = await peertubeRun();
  const loadPeertubeAfter = loadNow();

  const ingestBytes = source.length - chunkAt(total - 1).length;
  const perRound = rounds.map(({ bare: b, framework: f, glimpse: g, load }) => {
    const bareRate = source.length / b.seconds;
    const frameworkRate = source.length / f.seconds;
    const ingestRate = ingestBytes / g.ingest.seconds;
    const e2eRate = source.length / (g.ingest.seconds + g.finish);
    return {
      bareRate,
      frameworkRate,
      ingestRate,
      e2eRate,
      ingestBare: ratio(ingestRate, bareRate),
      frameworkBare: ratio(frameworkRate, bareRate),
      ingestFramework: ratio(ingestRate, frameworkRate),
      e2eBare: ratio(e2eRate, bareRate),
      load,
      b,
      f,
      g,
    };
  });
  type Round = (typeof perRound)[number];
  const mid = (f: (x: Round) => number) => median(perRound.map(f));
  const ingestBare = mid((x) => x.ingestBare);
  const e2eBare = mid((x) => x.e2eBare);
  const ingestRate = mid((x) => x.ingestRate);
  const e2eRate = mid((x) => x.e2eRate);
  const bareRate = mid((x) => x.bareRate);
  const finish = median(rounds.map((x) => x.glimpse.finish));
  const loads = perRound.map((x) => x.load).join(', ');
  // PeerTube's best run of the two against Glimpse's median one.
  const peertube = peertubeBefore.seconds <= peertubeAfter.seconds ? peertubeBefore : peertubeAfter;
  const ptChunks = peertube.chunks.map((b) => fmt(b / 1024 / 1024, 0)).join(', ');
  const peertubeRate = source.length / peertube.seconds;
  const vsPeertube = ratio(e2eRate, peertubeRate);
  const rawRate = source.length / raw;
  const syncedRate = source.length / synced;
  const ingestRatio = ratio(ingestRate, syncedRate);
  const sizeMb = fmt(source.length / 1024 / 1024, 0);
  const msPerMb = (seconds: number, bytes: number) => (1000 * seconds) / (bytes / 1024 / 1024);
  const cpuPerMb = (t: Timed, bytes: number) => fmt(msPerMb(t.cpuSeconds, bytes), 1);
  const frameworkBare = mid((x) => x.frameworkBare);
  const ingestFramework = mid((x) => x.ingestFramework);
  // Where Glimpse's share goes, in ms of CPU per MB (medians of the rounds).
  const cpu = {
    bare: mid((x) => msPerMb(x.b.cpuSeconds, source.length)),
    framework: mid((x) => msPerMb(x.f.cpuSeconds, source.length)),
    glimpse: mid((x) => msPerMb(x.g.ingest.cpuSeconds, ingestBytes)),
    postgres: mid((x) => msPerMb(x.g.ingest.postgresCpuSeconds, ingestBytes)),
  };
  const pairs = (f: (x: Round) => number) => perRound.map((x) => fmt(f(x))).join(', ');
  const figures: Figure[] = [
    {
      figure: `chunk ingestion / the bare server, ${IN_FLIGHT} chunks in flight, median of ${ROUNDS} alternating pairs`,
      value: `${fmt(ingestBare)} (pairs ${pairs((x) => x.ingestBare)}; ${mb(ingestRate)} vs ${mb(bareRate)}; load ${loads})`,
      goal: `>= ${GOAL_INGEST_BARE}`,
      met: ingestBare >= GOAL_INGEST_BARE,
    },
    {
      figure: `${sizeMb} MB upload end to end (every chunk, the last one's assembly and checks) / the bare server, median of ${ROUNDS} pairs`,
      value: `${fmt(e2eBare)} (pairs ${pairs((x) => x.e2eBare)}; ${mb(e2eRate)}; last chunk ${fmt(finish)} s)`,
      goal: `>= ${GOAL_E2E_BARE}`,
      met: e2eBare >= GOAL_E2E_BARE,
    },
    {
      figure: `${sizeMb} MB upload end to end / PeerTube's resumable upload (@uploadx/core, its web client's chunks)`,
      value: `${fmt(vsPeertube)} (${mb(e2eRate)} vs ${mb(peertubeRate)}; load ${loadPeertubeBefore} / ${loadPeertubeAfter})`,
      goal: `>= ${GOAL_PEERTUBE}`,
      met: vsPeertube >= GOAL_PEERTUBE,
    },
    {
      figure: 'Fastify + @fastify/multipart alone / the bare server (the framework, nothing of Glimpse: the most its route could reach), median of the rounds',
      value: `${fmt(frameworkBare)} (rounds ${pairs((x) => x.frameworkBare)}; ${mb(mid((x) => x.frameworkRate))})`,
      goal: '-',
      met: null,
    },
    {
      figure: 'chunk ingestion / Fastify + @fastify/multipart alone (what Glimpse adds: auth, checks, the admission statement, storage)',
      value: `${fmt(ingestFramework)} (rounds ${pairs((x) => x.ingestFramework)}; CPU per MB: bare ${fmt(cpu.bare, 1)}, framework ${fmt(cpu.framework, 1)}, Glimpse ${fmt(cpu.glimpse, 1)} + PostgreSQL ${fmt(cpu.postgres, 1)} ms)`,
      goal: '-',
      met: null,
    },
    { figure: `chunk ingestion / raw fsync'd disk write, ${IN_FLIGHT} chunks in flight`, value: `${fmt(ingestRatio)} (${mb(ingestRate)} vs ${mb(syncedRate)})`, goal: `>= ${GOAL}`, met: ingestRatio >= GOAL },
    { figure: "bare node:http + multipart server / raw fsync'd disk write (the protocol's limit here)", value: `${fmt(ratio(bareRate, syncedRate))} (${mb(bareRate)})`, goal: '-', met: null },
  ];
  report('upload', `npm run bench -- upload --mb ${values.mb}`, [
    `${sizeMb} MB (a real mp4 padded with a free box) in ${total} chunks of 3 MB, ${IN_FLIGHT} POSTs in flight over ${IN_FLIGHT} keep-alive loopback connections to one Glimpse process (local storage driver) (PostgreSQL at ${url.replace(/\/\/[^@]*@/, '//')}) and to a bare node:http + the same multipart parser (bench/bare-upload-server.ts: every part, the last too, streamed into a file; for it the upload is over then), in ${ROUNDS} rounds of alternating pairs (bare first in the odd rounds, Glimpse first in the even ones), with Fastify + @fastify/multipart alone between them (bench/framework-upload-server.ts: Glimpse's framework and multipart plugin, the file part streamed into a file, nothing else); raw = the same bytes written with fs in 3 MB writes to the same disk (best of three). CPU = the server process's user + system time over the run (the client and the kernel's writeback are not in it); PostgreSQL = its processes' CPU over Glimpse's ingestion (the chunks' admission statements), on the same 2 cores. Load average (1 min) after each round: this machine is shared, so every absolute figure moves with it.`,
    '',
    '| round | Glimpse: chunks but the last (one SQL statement each) | Glimpse: last chunk (linked as the original; box check, ffprobe, rows, job) | Glimpse: whole upload | bare server: every chunk | framework alone: every chunk | ingestion / bare | framework / bare | whole / bare | CPU per MB: Glimpse ingestion + its PostgreSQL / framework / bare | load after |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...perRound.map(
      (x, i) =>
        `| ${i + 1} | ${fmt(x.g.ingest.seconds)} s (${mb(x.ingestRate)}) | ${fmt(x.g.finish)} s | ${fmt(x.g.ingest.seconds + x.g.finish)} s (${mb(x.e2eRate)}) | ${fmt(x.b.seconds)} s (${mb(x.bareRate)}) | ${fmt(x.f.seconds)} s (${mb(x.frameworkRate)}) | ${fmt(x.ingestBare)} | ${fmt(x.frameworkBare)} | ${fmt(x.e2eBare)} | ${cpuPerMb(x.g.ingest, ingestBytes)} + ${fmt(msPerMb(x.g.ingest.postgresCpuSeconds, ingestBytes), 1)} / ${cpuPerMb(x.f, source.length)} / ${cpuPerMb(x.b, source.length)} ms | ${x.load} |`,
    ),
    '',
    '| other runs | time | throughput | load after |',
    '|---|---|---|---|',
    `| PeerTube's resumable upload (bench/peertube-upload-server.ts: @uploadx/core with PeerTube's options, without its auth, validators and post-upload controller), as its web client sends it: one PUT at a time, chunks of ${ptChunks} MiB; best of one run before the rounds (${fmt(peertubeBefore.seconds)} s) and one after (${fmt(peertubeAfter.seconds)} s) | ${fmt(peertube.seconds)} s | ${mb(peertubeRate)} | ${loadPeertubeBefore} / ${loadPeertubeAfter} |`,
    `| raw write of the same bytes (page cache, no fsync) | ${fmt(raw)} s | ${mb(rawRate)} | - |`,
    `| raw write of the same bytes, fsync'd (the disk) | ${fmt(synced)} s | ${mb(syncedRate)} | - |`,
    '',
    `- chunk ingestion / the bare server = **${fmt(ingestBare)}**, median of the rounds (goal >= ${GOAL_INGEST_BARE}: what Glimpse's auth, checks, SQL and storage cost per chunk)`,
    `- where the gap goes, CPU per MB (medians): the bare server ${fmt(cpu.bare, 2)} ms; Fastify + @fastify/multipart alone ${fmt(cpu.framework, 2)} ms (the framework: ${fmt(frameworkBare)} of the bare server's speed); Glimpse ${fmt(cpu.glimpse, 2)} ms in its process and ${fmt(cpu.postgres, 2)} ms in PostgreSQL for the chunks' admission statements (${fmt(ingestFramework)} of the framework's speed). Glimpse's route on top of the framework costs ${fmt(cpu.glimpse + cpu.postgres - cpu.framework, 2)} ms per MB, ${fmt(((cpu.glimpse + cpu.postgres - cpu.framework) * CHUNK_BYTES) / 1024 / 1024, 1)} ms per 3 MB chunk`,
    `- whole upload / the bare server = **${fmt(e2eBare)}**, median of the rounds (goal >= ${GOAL_E2E_BARE}; the bare server has no last-chunk work, so this is ingestion plus the links, probe and rows of the last chunk)`,
    `- whole upload (median round) / PeerTube's resumable upload (best run) = **${fmt(vsPeertube)}** (goal >= ${GOAL_PEERTUBE}; Glimpse's spec client: 3 MB chunks, ${IN_FLIGHT} in flight, then the last chunk's links, probe and rows; PeerTube's: growing chunks one at a time, and none of its work after the last PUT, so its figure is a best case)`,
    `- chunk ingestion / raw fsync'd disk write = **${fmt(ingestRatio)}** (ADR 018's goal >= ${GOAL})`,
    `- the bare server / raw fsync'd disk write = **${fmt(ratio(bareRate, syncedRate))}** (what HTTP over loopback, the parser and the file writes reach here with no application at all)`,
    `- chunk ingestion / raw page-cache write = **${fmt(ratio(ingestRate, rawRate))}** (memory bandwidth: no HTTP path comes near it)`,
  ], figures);
} finally {
  await stop(server);
  await stop(bare);
  await stop(framework);
  agent.destroy();
  await database.db.delete(users).where(eq(users.id, userId));
  await database.close();
  rmSync(root, { recursive: true, force: true });
}
