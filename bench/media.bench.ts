/**
 * Media serving: the same HLS segment set and a 200 MB mp4 (byte ranges) served by Glimpse
 * (Node, /media) and by nginx (one worker) on loopback, measured in one run.
 * nginx runs the documented front config (docs/nginx.conf), so its figures are those of the
 * recommended deployment; the API through that front is measured against Glimpse direct.
 * Usage: npm run bench -- media [--seconds 10]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import path from 'node:path';
import { clipJob } from '@glimpse/media';
import { startNginx } from '../apps/server/test/nginx.ts';
import { createContext } from '../apps/server/src/boot.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { users, videos } from '../apps/server/src/db/schema.ts';
import { newId } from '../apps/server/src/lib/ids.ts';
import { videoMediaPrefix } from '../apps/server/src/storage/media-keys.ts';
import { fmt, mb, media as mediaService, ratio, report, startGlimpse, stop, waitFor, wrk, type Figure, type LoadResult } from './lib.ts';

const engine = mediaService.engine;

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' } } });
const seconds = Number(values.seconds);
const root = path.resolve('bench/tmp/media-bench');
const dataDir = path.join(root, 'data');
const videoId = newId();
const videoDir = path.join(dataDir, 'media', videoMediaPrefix(videoId));
const hlsDir = path.join(videoDir, 'hls');
const NODE_PORT = 3211;
const NGINX_PORT = 3212;
const NGINX_TLS_PORT = 3213;

/** The media files of one public, ready video, and its row: served at its public URLs like any other. */
async function prepare(): Promise<string> {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(hlsDir, { recursive: true });
  await engine.run(
    clipJob({
      out: path.join(hlsDir, 'index.m3u8'),
      seconds: 24,
      width: 1280,
      height: 720,
      fps: 30,
      container: 'hls',
      muxerOptions: { hls_time: '4', hls_segment_type: 'fmp4', hls_playlist_type: 'vod' },
      video: { codec: 'libx264', bitrate: 3_000_000, options: { preset: 'veryfast', g: '120' } },
      audio: false,
    }),
  );
  writeFileSync(path.join(videoDir, 'big.mp4'), execFileSync('head', ['-c', String(200 * 1024 * 1024), '/dev/urandom'], { maxBuffer: 300 * 1024 * 1024 }));
  const ctx = await createContext(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error' }));
  try {
    const ownerId = newId();
    await ctx.db.insert(users).values({ id: ownerId, userName: 'bench', fullName: 'Bench', email: 'bench@bench.local', passwordHash: 'x' });
    const [row] = await ctx.db
      .insert(videos)
      .values({ id: videoId, ownerId, title: 'Bench', status: 'ready', privacy: 'public', hlsKey: `${videoMediaPrefix(videoId)}/hls/index.m3u8` })
      .returning();
    return `/media/${videoMediaPrefix(videoId)}/pub-${row!.mediaToken}`;
  } finally {
    await ctx.database.close();
  }
}

function measure(port: number, name: string, base: string): [LoadResult, LoadResult] {
  const segs = readdirSync(hlsDir).filter((f) => f.endsWith('.m4s')).map((f) => ({ path: `${base}/hls/${f}` }));
  const segments = wrk(`${name} HLS segments`, { url: `http://127.0.0.1:${port}`, connections: 32, seconds, requests: segs });
  const size = 200 * 1024 * 1024;
  const chunk = 1024 * 1024;
  const ranges = Array.from({ length: 64 }, (_, i) => {
    const start = ((i * 7919) % 199) * chunk;
    return { path: `${base}/big.mp4`, headers: { range: `bytes=${start}-${Math.min(size, start + chunk) - 1}` } };
  });
  const byteRanges = wrk(`${name} mp4 1 MB ranges`, { url: `http://127.0.0.1:${port}`, connections: 32, seconds, requests: ranges });
  return [segments, byteRanges];
}

const base = await prepare();
const health = [{ path: '/api/v1/health' }];
// Glimpse alone streams the files itself; behind nginx it answers X-Accel-Redirect and nginx sends
// them. One PGlite data folder has one owner, so the two setups run one after the other.
let node = startGlimpse(NODE_PORT, { DATA_DIR: dataDir });
let nSeg: LoadResult, nRange: LoadResult, apiDirect: LoadResult;
try {
  await waitFor(`http://127.0.0.1:${NODE_PORT}/api/v1/health`);
  [nSeg, nRange] = measure(NODE_PORT, 'glimpse', base);
  apiDirect = wrk('API health, Glimpse direct', { url: `http://127.0.0.1:${NODE_PORT}`, connections: 32, seconds, requests: health });
} finally {
  await stop(node);
}
node = startGlimpse(NODE_PORT, { DATA_DIR: dataDir, MEDIA_ACCEL_REDIRECT: '/_media_files/' });
// The documented front config (docs/nginx.conf), with this run's data and ports and one worker
// like the one Node process; measured over http.
const nginx = await startNginx({ root, dataDir, upstreamPort: NODE_PORT, httpPort: NGINX_PORT, httpsPort: NGINX_TLS_PORT });
try {
  await waitFor(`http://127.0.0.1:${NODE_PORT}/api/v1/health`);
  await waitFor(`http://127.0.0.1:${NGINX_PORT}${base}/hls/index.m3u8`);
  const [xSeg, xRange] = measure(NGINX_PORT, 'nginx', base);
  const apiFront = wrk('API health, through the nginx front', { url: `http://127.0.0.1:${NGINX_PORT}`, connections: 32, seconds, requests: health });
  const row = (r: LoadResult) => `| ${r.label} | ${fmt(r.requestsPerSec, 0)} | ${mb(r.bytesPerSec)} | ${r.p50} | ${r.p99} | ${r.errors + r.non2xx} |`;
  const GOAL = 0.6;
  const segRatio = ratio(nSeg.bytesPerSec, xSeg.bytesPerSec);
  const rangeRatio = ratio(nRange.bytesPerSec, xRange.bytesPerSec);
  const frontRatio = ratio(apiFront.requestsPerSec, apiDirect.requestsPerSec);
  const figures: Figure[] = [
    { figure: 'Glimpse / nginx throughput, HLS segments', value: `${fmt(segRatio)} (${mb(nSeg.bytesPerSec)} vs ${mb(xSeg.bytesPerSec)})`, goal: `>= ${GOAL}`, met: segRatio >= GOAL },
    { figure: 'Glimpse / nginx throughput, mp4 1 MB ranges', value: `${fmt(rangeRatio)} (${mb(nRange.bytesPerSec)} vs ${mb(xRange.bytesPerSec)})`, goal: `>= ${GOAL}`, met: rangeRatio >= GOAL },
    { figure: 'API through the nginx front / direct, req/s', value: fmt(frontRatio), goal: '-', met: null },
  ];
  report('media', 'npm run bench -- media', [
    `wrk, 1 thread, 32 connections, ${seconds} s each, loopback; nginx 1 worker with the documented front config (docs/nginx.conf: Glimpse checks each media request and answers X-Accel-Redirect, nginx sends the file with sendfile), Glimpse one Node process (@fastify/send, 1 MiB reads). One public video's files at their public URLs: 24 s 720p fMP4 HLS set (4 s segments, ~1.5 MB each) and a 200 MB file read in 64 rotating 1 MB ranges.`,
    '',
    '| run | req/s | throughput | p50 ms | p99 ms | errors+non2xx |',
    '|---|---|---|---|---|---|',
    ...[nSeg, xSeg, nRange, xRange, apiDirect, apiFront].map(row),
    '',
    `- HLS segments: Glimpse / nginx throughput = **${fmt(segRatio)}** (goal >= ${GOAL})`,
    `- mp4 byte ranges: Glimpse / nginx throughput = **${fmt(rangeRatio)}** (goal >= ${GOAL})`,
    `- API through the nginx front / Glimpse direct (requests/s) = **${fmt(frontRatio)}** (the proxy hop's cost on the smallest answer)`,
  ], figures);
} finally {
  await stop(node);
  await nginx.stop();
}
