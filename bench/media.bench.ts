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
import { fmt, mb, media as mediaService, ratio, report, startGlimpse, stop, waitFor, wrk, type LoadResult } from './lib.ts';

const engine = mediaService.engine;

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' } } });
const seconds = Number(values.seconds);
const root = path.resolve('bench/tmp/media-bench');
const media = path.join(root, 'data/media');
const hlsDir = path.join(media, 'videos/bench/hls');
const NODE_PORT = 3211;
const NGINX_PORT = 3212;
const NGINX_TLS_PORT = 3213;

async function prepare() {
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
  writeFileSync(path.join(media, 'videos/bench/big.mp4'), execFileSync('head', ['-c', String(200 * 1024 * 1024), '/dev/urandom'], { maxBuffer: 300 * 1024 * 1024 }));
}

function measure(port: number, name: string): [LoadResult, LoadResult] {
  const segs = readdirSync(hlsDir).filter((f) => f.endsWith('.m4s')).map((f) => ({ path: `/media/videos/bench/hls/${f}` }));
  const segments = wrk(`${name} HLS segments`, { url: `http://127.0.0.1:${port}`, connections: 32, seconds, requests: segs });
  const size = 200 * 1024 * 1024;
  const chunk = 1024 * 1024;
  const ranges = Array.from({ length: 64 }, (_, i) => {
    const start = ((i * 7919) % 199) * chunk;
    return { path: '/media/videos/bench/big.mp4', headers: { range: `bytes=${start}-${Math.min(size, start + chunk) - 1}` } };
  });
  const byteRanges = wrk(`${name} mp4 1 MB ranges`, { url: `http://127.0.0.1:${port}`, connections: 32, seconds, requests: ranges });
  return [segments, byteRanges];
}

await prepare();
const node = startGlimpse(NODE_PORT, { DATA_DIR: path.join(root, 'data') });
// The documented front config (docs/nginx.conf: /media/ from disk, the rest proxied to Glimpse),
// with this run's data and ports and one worker like the one Node process; measured over http.
const nginx = await startNginx({ root, dataDir: path.join(root, 'data'), upstreamPort: NODE_PORT, httpPort: NGINX_PORT, httpsPort: NGINX_TLS_PORT });
try {
  await waitFor(`http://127.0.0.1:${NODE_PORT}/api/v1/health`);
  await waitFor(`http://127.0.0.1:${NGINX_PORT}/media/videos/bench/hls/index.m3u8`);
  const [nSeg, nRange] = measure(NODE_PORT, 'glimpse');
  const [xSeg, xRange] = measure(NGINX_PORT, 'nginx');
  const health = [{ path: '/api/v1/health' }];
  const apiDirect = wrk('API health, Glimpse direct', { url: `http://127.0.0.1:${NODE_PORT}`, connections: 32, seconds, requests: health });
  const apiFront = wrk('API health, through the nginx front', { url: `http://127.0.0.1:${NGINX_PORT}`, connections: 32, seconds, requests: health });
  const row = (r: LoadResult) => `| ${r.label} | ${fmt(r.requestsPerSec, 0)} | ${mb(r.bytesPerSec)} | ${r.p50} | ${r.p99} | ${r.errors + r.non2xx} |`;
  report('media-serving', 'npm run bench -- media', [
    `wrk, 1 thread, 32 connections, ${seconds} s each, loopback; nginx 1 worker with the documented front config (docs/nginx.conf: sendfile), Glimpse one Node process (@fastify/static, 1 MiB reads). 24 s 720p fMP4 HLS set (4 s segments, ~1.5 MB each) and a 200 MB file read in 64 rotating 1 MB ranges.`,
    '',
    '| run | req/s | throughput | p50 ms | p99 ms | errors+non2xx |',
    '|---|---|---|---|---|---|',
    ...[nSeg, xSeg, nRange, xRange, apiDirect, apiFront].map(row),
    '',
    `- HLS segments: Glimpse / nginx throughput = **${fmt(ratio(nSeg.bytesPerSec, xSeg.bytesPerSec))}** (goal >= 0.6)`,
    `- mp4 byte ranges: Glimpse / nginx throughput = **${fmt(ratio(nRange.bytesPerSec, xRange.bytesPerSec))}** (goal >= 0.6)`,
    `- API through the nginx front / Glimpse direct (requests/s) = **${fmt(ratio(apiFront.requestsPerSec, apiDirect.requestsPerSec))}** (the proxy hop's cost on the smallest answer)`,
  ]);
} finally {
  await stop(node);
  await nginx.stop();
}
