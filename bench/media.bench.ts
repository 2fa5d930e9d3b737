/**
 * Media serving: the same HLS segment set and a 200 MB mp4 (byte ranges) served by Glimpse
 * (Node, /media) and by nginx (one worker) on loopback, measured in one run.
 * Usage: tsx bench/media.ts [--seconds 10]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import path from 'node:path';
import { fmt, mb, ratio, report, wrk, type LoadResult } from './lib.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' } } });
const seconds = Number(values.seconds);
const root = path.resolve('bench/tmp/media-bench');
const media = path.join(root, 'data/media');
const hlsDir = path.join(media, 'videos/bench/hls');
const NODE_PORT = 3198;
const NGINX_PORT = 3197;

async function waitFor(url: string) {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

function prepare() {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(hlsDir, { recursive: true });
  execFileSync('ffmpeg', [
    '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=24',
    '-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '3M', '-g', '120',
    '-f', 'hls', '-hls_time', '4', '-hls_segment_type', 'fmp4', '-hls_playlist_type', 'vod',
    path.join(hlsDir, 'index.m3u8'),
  ]);
  writeFileSync(path.join(media, 'videos/bench/big.mp4'), execFileSync('head', ['-c', String(200 * 1024 * 1024), '/dev/urandom'], { maxBuffer: 300 * 1024 * 1024 }));
}

function startNode(): ChildProcess {
  return spawn('npx', ['tsx', 'apps/server/src/main.ts', 'serve'], {
    env: { ...process.env, PORT: String(NODE_PORT), HOST: '127.0.0.1', DATA_DIR: path.join(root, 'data'), LOG_LEVEL: 'error', WORKER_ENABLED: 'false' },
    stdio: 'ignore',
  });
}

function startNginx(): ChildProcess {
  const conf = path.join(root, 'nginx.conf');
  writeFileSync(
    conf,
    `worker_processes 1; daemon off; pid ${root}/nginx.pid; error_log ${root}/nginx-error.log;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush on; types { application/vnd.apple.mpegurl m3u8; video/iso.segment m4s; video/mp4 mp4; }
  server { listen 127.0.0.1:${NGINX_PORT}; location /media/ { alias ${media}/; add_header Cache-Control "public, max-age=31536000, immutable"; } } }`,
  );
  return spawn('nginx', ['-c', conf], { stdio: 'ignore' });
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

prepare();
const node = startNode();
const nginx = startNginx();
try {
  await waitFor(`http://127.0.0.1:${NODE_PORT}/api/v1/health`);
  await waitFor(`http://127.0.0.1:${NGINX_PORT}/media/videos/bench/hls/index.m3u8`);
  const [nSeg, nRange] = measure(NODE_PORT, 'glimpse');
  const [xSeg, xRange] = measure(NGINX_PORT, 'nginx');
  const row = (r: LoadResult) => `| ${r.label} | ${fmt(r.requestsPerSec, 0)} | ${mb(r.bytesPerSec)} | ${r.p50} | ${r.p99} | ${r.errors + r.non2xx} |`;
  report('media-serving', 'npm run bench -- media', [
    `wrk, 1 thread, 32 connections, ${seconds} s each, loopback; nginx 1 worker with sendfile, Node one process.`,
    '',
    '| run | req/s | throughput | p50 ms | p99 ms | errors+non2xx |',
    '|---|---|---|---|---|---|',
    ...[nSeg, xSeg, nRange, xRange].map(row),
    '',
    `- HLS segments: Glimpse / nginx throughput = **${fmt(ratio(nSeg.bytesPerSec, xSeg.bytesPerSec))}** (goal >= 0.6)`,
    `- mp4 byte ranges: Glimpse / nginx throughput = **${fmt(ratio(nRange.bytesPerSec, xRange.bytesPerSec))}** (goal >= 0.6)`,
  ]);
} finally {
  node.kill('SIGTERM');
  nginx.kill('SIGTERM');
}
