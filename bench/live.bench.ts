/**
 * Lives (ADR 024): a 1080p30 stream pushed over RTMP in real time into the real server's ingest,
 * then (1) the CPU the live's engine process uses for its ladder (source copied + 360p encoded), and
 * (2) live playlist and segment requests per second through the documented nginx front
 * (docs/nginx.conf) while the live runs, with 0 errors as the goal.
 * Usage: npm run bench -- live [--seconds 10]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { clipJob } from '@glimpse/media';
import { createContext } from '../apps/server/src/boot.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { users } from '../apps/server/src/db/schema.ts';
import { newId } from '../apps/server/src/lib/ids.ts';
import { LivesService } from '../apps/server/src/modules/lives/lives.service.ts';
import { documentedGlimpseEnv, startNginx } from '../apps/server/test/nginx.ts';
import { engineVersion, fmt, load, mb, media, report, startGlimpse, stop, waitFor, type Figure } from './lib.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' } } });
const seconds = Number(values.seconds);
const root = path.resolve('bench/tmp/live-bench');
const dataDir = path.join(root, 'data');
const source = path.join(root, 'source.flv');
const NODE_PORT = 3221;
const NGINX_PORT = 3222;
const NGINX_TLS_PORT = 3223;
const RTMP_PORT = 3224;
/** Warm-up before measuring, then the CPU window, then the load window, then slack. */
const streamSeconds = 8 + seconds * 2 + 10;
const CLOCK_TICKS = 100;

/** An OBS-like 1080p30 stream (x264 6 Mbit/s, a keyframe every 2 s, AAC 160 kbit/s), encoded ahead so pushing it costs nothing. */
async function prepare(): Promise<string> {
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
    const created = await new LivesService(ctx).create(ownerId, { title: 'Bench live', description: '', privacy: 'public', permanent: false, saveReplay: false, latencyMode: 'normal' });
    return created.streamKey;
  } finally {
    await ctx.database.close();
  }
}

/** CPU seconds a process has used so far (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
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

const key = await prepare();
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
  let hlsUrl: string | null = null;
  for (let i = 0; i < 200 && !hlsUrl; i++) {
    await new Promise((r) => setTimeout(r, 100));
    hlsUrl = ((await (await fetch(`${front}/api/v1/lives/${liveId}`)).json()) as { data: { hlsUrl: string | null } }).data.hlsUrl;
  }
  if (!hlsUrl) throw new Error('the live did not start');
  await new Promise((r) => setTimeout(r, 8_000));

  const pid = enginePid(server.pid!);
  if (!pid) throw new Error('no engine process found for the live');
  const cpu0 = cpuSeconds(pid);
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const cores = (cpuSeconds(pid) - cpu0) / ((Date.now() - t0) / 1000);

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

  const figures: Figure[] = [
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
    `- Not measured yet: glass-to-glass latency (a clock burned into the pushed picture, read back in the player) and the low-latency mode, which is not built (ADR 024).`,
    `- ${await engineVersion()}`,
  ], figures);
} finally {
  await stop(server);
  await nginx.stop();
  // A live's segments are .ts files: nothing of them is kept where tools look for TypeScript.
  rmSync(root, { recursive: true, force: true });
}
