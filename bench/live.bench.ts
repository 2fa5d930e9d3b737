/// <reference lib="dom" />
/**
 * Lives (ADR 024): a 1080p30 stream pushed over RTMP in real time into the real server's ingest,
 * then (1) the CPU the live's engine process uses for its ladder (source copied + 360p encoded), and
 * (2) live playlist and segment requests per second through the documented nginx front
 * (docs/nginx.conf) while the live runs, with 0 errors as the goal; then (3) glass-to-glass latency
 * in each latency mode: a clock drawn into each pushed frame (bench/live-clock.ts) read back from the
 * frame Chromium shows, played by hls.js with the watch page's settings, through the same front.
 * Usage: npm run bench -- live [--seconds 10] [--latency-seconds 20]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { clipJob } from '@glimpse/media';
import { chromium, type Browser } from 'playwright-core';
import { liveHlsConfig } from '../apps/web/src/features/lives/live-latency.ts';
import { createContext } from '../apps/server/src/boot.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { users } from '../apps/server/src/db/schema.ts';
import { newId } from '../apps/server/src/lib/ids.ts';
import { LivesService } from '../apps/server/src/modules/lives/lives.service.ts';
import { documentedGlimpseEnv, startNginx } from '../apps/server/test/nginx.ts';
import { engineVersion, fmt, load, mb, media, processCpuSeconds, report, startGlimpse, stop, waitFor, type Figure } from './lib.ts';
import { readClock } from './live-clock.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, 'latency-seconds': { type: 'string', default: '20' } } });
const seconds = Number(values.seconds);
const latencySeconds = Number(values['latency-seconds']);
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
type Mode = 'normal' | 'low';
/** Glass-to-glass goals, seconds (issue #36). */
const LATENCY_GOAL: Record<Mode, number> = { normal: 6, low: 3 };
/** The encoder's keyframe interval, seconds, as README "Going live" tells OBS users for each mode. */
const KEYINT: Record<Mode, number> = { normal: 2, low: 1 };
const root = path.resolve('bench/tmp/live-bench');
const dataDir = path.join(root, 'data');
const source = path.join(root, 'source.flv');
const NODE_PORT = 3221;
const NGINX_PORT = 3222;
const NGINX_TLS_PORT = 3223;
const RTMP_PORT = 3224;
/** Warm-up before measuring, then the CPU window, then the load window, then slack. */
const streamSeconds = 8 + seconds * 2 + 10;

/** An OBS-like 1080p30 stream (x264 6 Mbit/s, a keyframe every 2 s, AAC 160 kbit/s), encoded ahead so pushing it costs nothing; and a key for it and for a live of each latency mode. */
async function prepare(): Promise<{ key: string; clockKeys: Record<Mode, string> }> {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  await media.engine.run(
    clipJob({
      out: source,
      seconds: streamSeconds,
      width: 1920,
      height: 1080,
      fps: 30,
      container: 'flv',
      video: { codec: 'libx264', bitrate: 6_000_000, options: { preset: 'veryfast', g: '60', keyint_min: '60', sc_threshold: '0' } },
      audio: { codec: 'aac', bitrate: 160_000 },
    }),
  );
  const ctx = await createContext(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error' }));
  try {
    await ctx.settings.update({ livesEnabled: true });
    const ownerId = newId();
    await ctx.db.insert(users).values({ id: ownerId, userName: 'bench', fullName: 'Bench', email: 'bench@bench.local', passwordHash: 'x' });
    const lives = new LivesService(ctx);
    const create = async (title: string, latencyMode: Mode) => (await lives.create(ownerId, { title, description: '', privacy: 'public', permanent: false, saveReplay: false, latencyMode })).streamKey;
    return { key: await create('Bench live', 'normal'), clockKeys: { normal: await create('Clock, normal latency', 'normal'), low: await create('Clock, low latency', 'low') } };
  } finally {
    await ctx.database.close();
  }
}

/** The live's engine: the server's child process running the media runner. */
function enginePid(serverPid: number): number | undefined {
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.split(') ')[1]!.split(' ')[1]);
      if (ppid === serverPid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('av-runner')) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

interface Latency {
  median: number;
  p90: number;
  samples: number;
  unread: number;
  rung: string;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** The live's master playlist path, once it is on air. */
async function onAir(front: string, liveId: string): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const { hlsUrl } = ((await (await fetch(`${front}/api/v1/lives/${liveId}`)).json()) as { data: { hlsUrl: string | null } }).data;
    if (hlsUrl) return hlsUrl;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`live ${liveId} did not start`);
}

/** Waits for a live's session to end: the next may only start then (one live on air per creator). */
async function offAir(front: string, liveId: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (((await (await fetch(`${front}/api/v1/lives/${liveId}`)).json()) as { data: { state: string } }).data.state !== 'live') return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Pushes the clock stream to a live of the given mode, plays it in Chromium with hls.js as the watch
 * page configures it, waits for the player to settle, then reads the clock of each shown frame (at
 * most 5 a second) for `latencySeconds`: the latency of a frame is the wall clock when it is shown
 * minus the clock drawn into it (one machine, one clock).
 */
async function measureLatency(browser: Browser, front: string, mode: Mode, key: string): Promise<Latency> {
  const liveId = key.split('.')[0]!;
  const pusher = spawn(process.execPath, ['--import', 'tsx', 'bench/live-clock-push.ts', `rtmp://127.0.0.1:${RTMP_PORT}/live/${key}`, String(latencySeconds + 40), String(KEYINT[mode])], { stdio: 'inherit' });
  const context = await browser.newContext({ bypassCSP: true });
  try {
    const src = await onAir(front, liveId);
    const page = await context.newPage();
    // Same origin as the playlists; hls.js from the web app's own dependency, no build needed.
    await page.goto(`${front}/api/v1/health`);
    await page.setContent('<video muted autoplay playsinline width="640" height="360"></video>');
    await page.addScriptTag({ path: path.resolve('node_modules/hls.js/dist/hls.min.js') });
    // tsx names the page function's inner helpers through a `__name` call the page does not have.
    await page.addScriptTag({ content: 'window.__name = (f) => f;' });
    return await page.evaluate(
      async ({ src, config, reader, settleMs, measureMs }) => {
        const read = new Function(`return ${reader}`)() as (px: Uint8ClampedArray, w: number, h: number) => number | null;
        const video = document.querySelector('video')!;
        const { Hls } = window as unknown as { Hls: new (c: object) => { loadSource(s: string): void; attachMedia(v: HTMLVideoElement): void; levels: { uri: string }[]; currentLevel: number } };
        const hls = new Hls(config);
        hls.loadSource(src);
        hls.attachMedia(video);
        await new Promise<void>((resolve) => video.addEventListener('playing', () => resolve(), { once: true }));
        await new Promise((r) => setTimeout(r, settleMs));
        const canvas = new OffscreenCanvas(640, 360);
        const g = canvas.getContext('2d', { willReadFrequently: true })!;
        const latencies: number[] = [];
        let unread = 0;
        let last = 0;
        const end = Date.now() + measureMs;
        await new Promise<void>((resolve) => {
          const onFrame = () => {
            const now = Date.now();
            if (now >= end) return resolve();
            if (now - last >= 200) {
              last = now;
              g.drawImage(video, 0, 0, 640, 360);
              const shown = read(g.getImageData(0, 0, 640, 360).data, 640, 360);
              if (shown === null) unread += 1;
              else latencies.push((now % 2 ** 32) - shown + (now % 2 ** 32 < shown ? 2 ** 32 : 0));
            }
            video.requestVideoFrameCallback(onFrame);
          };
          video.requestVideoFrameCallback(onFrame);
        });
        const level = hls.levels[hls.currentLevel];
        // The rung's folder: 'source' or a lower rung's name.
        return { latencies, unread, rung: level ? level.uri.split('/').slice(-2)[0]! : '?' };
      },
      { src, config: liveHlsConfig[mode], reader: readClock.toString(), settleMs: 6_000, measureMs: latencySeconds * 1000 },
    ).then(({ latencies, unread, rung }) => {
      if (latencies.length < 10) throw new Error(`${mode}: only ${latencies.length} frames read (${unread} unreadable)`);
      const sorted = latencies.sort((a, b) => a - b);
      return { median: quantile(sorted, 0.5) / 1000, p90: quantile(sorted, 0.9) / 1000, samples: sorted.length, unread, rung };
    });
  } finally {
    await context.close();
    await stop(pusher);
    await offAir(front, liveId);
  }
}

const { key, clockKeys } = await prepare();
const liveId = key.split('.')[0]!;
// What docs/nginx.conf says to run Glimpse with behind it (its port and data folder are this run's).
const { TRUST_PROXY, MEDIA_ACCEL_REDIRECT } = documentedGlimpseEnv();
const server = startGlimpse(NODE_PORT, {
  TRUST_PROXY: TRUST_PROXY!,
  MEDIA_ACCEL_REDIRECT: MEDIA_ACCEL_REDIRECT!,
  DATA_DIR: dataDir,
  WORKER_ENABLED: 'true',
  LIVE_RTMP_PORT: String(RTMP_PORT),
  LIVE_RTMP_HOST: '127.0.0.1',
});
const nginx = await startNginx({ root, dataDir, upstreamPort: NODE_PORT, httpPort: NGINX_PORT, httpsPort: NGINX_TLS_PORT });
const front = `http://127.0.0.1:${NGINX_PORT}`;
try {
  await waitFor(`http://127.0.0.1:${NODE_PORT}/api/v1/health`);
  const pusher = spawn(process.execPath, ['--import', 'tsx', 'bench/live-push.ts', source, `rtmp://127.0.0.1:${RTMP_PORT}/live/${key}`], { stdio: 'inherit' });
  const hlsUrl = await onAir(front, liveId);
  await new Promise((r) => setTimeout(r, 8_000));

  const pid = enginePid(server.pid!);
  if (!pid) throw new Error('no engine process found for the live');
  const cpu0 = processCpuSeconds(pid);
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const cores = (processCpuSeconds(pid) - cpu0) / ((Date.now() - t0) / 1000);

  // What viewers ask for: the master playlist, each rung's playlist, and the segments they name.
  const sessionBase = hlsUrl.replace(/master\.m3u8$/, '');
  const requests = [{ path: hlsUrl }];
  for (const rung of ['source', '360p']) {
    const playlist = await (await fetch(`${front}${sessionBase}${rung}/index.m3u8`)).text();
    requests.push({ path: `${sessionBase}${rung}/index.m3u8` });
    for (const seg of playlist.match(/seg_\d{6}\.ts/g)!.slice(-3)) requests.push({ path: `${sessionBase}${rung}/${seg}` });
  }
  const served = await load('live playlists and segments through nginx', { url: front, connections: 32, seconds, requests });
  await new Promise<void>((resolve) => pusher.once('exit', () => resolve()));
  await offAir(front, liveId);

  const browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'] });
  const latency = {} as Record<Mode, Latency>;
  try {
    for (const mode of ['normal', 'low'] as const) {
      latency[mode] = await measureLatency(browser, front, mode, clockKeys[mode]);
      console.log(`${mode}: median ${fmt(latency[mode].median)} s, p90 ${fmt(latency[mode].p90)} s (${latency[mode].samples} frames, ${latency[mode].rung})`);
    }
  } finally {
    await browser.close();
  }

  const figures: Figure[] = [
    ...(['normal', 'low'] as const).map((mode) => ({
      figure: `Glass-to-glass latency, ${mode} mode (median / p90)`,
      value: `${fmt(latency[mode].median)} s / ${fmt(latency[mode].p90)} s`,
      goal: `<= ${LATENCY_GOAL[mode]} s`,
      met: latency[mode].median <= LATENCY_GOAL[mode],
    })),
    { figure: 'CPU per live, 1080p30 input (source copied + 360p x264)', value: `${fmt(cores)} cores`, goal: '-', met: null },
    {
      figure: 'Live playlist + segment requests/s through the nginx front',
      value: `${fmt(served.requestsPerSec, 0)} req/s (${mb(served.bytesPerSec)}), ${served.errors + served.non2xx} errors`,
      goal: '0 errors',
      met: served.errors + served.non2xx === 0,
    },
  ];
  report('live', 'npm run bench -- live', [
    `A ${streamSeconds} s 1080p30 stream (x264 6 Mbit/s, keyframe every 2 s, AAC 160 kbit/s), encoded ahead and pushed over RTMP in real time (packets copied, so the pusher costs next to nothing) into the server's own ingest (WORKER_ENABLED, LIVE_RTMP_PORT), behind the documented nginx front (docs/nginx.conf, 1 worker, MEDIA_ACCEL_REDIRECT).`,
    `- CPU of the live's engine process (source rung copied, 360p x264 veryfast/zerolatency, audio copied, 2 s TS segments) over ${seconds} s after an 8 s warm-up: **${fmt(cores)} cores** (/proc utime + stime).`,
    `- autocannon, 32 connections, ${seconds} s, rotating over the master playlist, both rungs' playlists and their last 3 segments, while the live runs: **${fmt(served.requestsPerSec, 0)} req/s** (${mb(served.bytesPerSec)}; autocannon, a JavaScript load generator on the same 2 cores, is itself a limit on 1.5 MB segments: wrk is not installed here), p50 ${served.p50} ms, p99 ${served.p99} ms, ${served.errors} errors, ${served.non2xx} non-2xx.`,
    `- Glass-to-glass latency: a 640x360 30 fps stream whose every frame carries the wall-clock milliseconds as black and white blocks, drawn in Node the moment it is "filmed", encoded by the bundled engine as OBS would (x264 ultrafast/zerolatency, 1 Mbit/s, keyframe every ${KEYINT.normal} s in normal mode and ${KEYINT.low} s in low-latency mode, AAC) and pushed over RTMP in real time; played in headless Chromium by hls.js with the watch page's settings (apps/web/src/features/lives/live-latency.ts) through the nginx front; after 6 s of playing, the clock of the shown frame (requestVideoFrameCallback, canvas) minus the wall clock, at most 5 frames a second for ${latencySeconds} s.`,
    ...(['normal', 'low'] as const).map((mode) => `  - ${mode}: median **${fmt(latency[mode].median)} s**, p90 ${fmt(latency[mode].p90)} s over ${latency[mode].samples} frames (${latency[mode].unread} unreadable), rung played: ${latency[mode].rung}; goal <= ${LATENCY_GOAL[mode]} s.`),
    `- ${await engineVersion()}`,
  ], figures);
} finally {
  await stop(server);
  await nginx.stop();
  // A live's segments are .ts files: nothing of them is kept where tools look for TypeScript.
  rmSync(root, { recursive: true, force: true });
}
