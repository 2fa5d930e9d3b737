/**
 * Transcode: what the ladder costs and what it is worth, with the engine `npm install` brings.
 * A generated 60 s 1080p25 clip (busy moving picture + tone) and a still-picture clip go through
 * the real transcode job; each rung's bytes and its SSIM against the source (scaled to the rung)
 * are measured, beside today's former ladder (fixed 400 kbit/s 240p with its own 128 kbit/s audio)
 * encoded in the same run from the same source.
 * Time to playable (ADR 019): the busy clip is uploaded over HTTP in 3 MB chunks to the app with
 * its worker running, as `npm start` runs them, and the owner's page polled every 100 ms from the
 * last chunk until the master playlist names a rung and its first segment is served.
 * Usage: npm run bench -- transcode   (TRANSCODE_SECONDS=10 for a quick run)
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { clipJob, renditionName, selectLadder, type MediaJob } from '@glimpse/media';
import { CHUNK_BYTES } from '@glimpse/contract';
import { buildApp } from '../apps/server/src/app.ts';
import { createContext } from '../apps/server/src/boot.ts';
import { createWorker } from '../apps/server/src/worker.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { users, videos } from '../apps/server/src/db/schema.ts';
import { newId } from '../apps/server/src/lib/ids.ts';
import { transcodeHandler } from '../apps/server/src/modules/transcode/transcode.job.ts';
import { originalKey } from '../apps/server/src/storage/media-keys.ts';
import { benchDatabaseUrl, engineVersion, ensureDatabase, fmt, media, ratio, report, type Figure } from './lib.ts';

const root = path.resolve('bench/tmp/transcode');
const SECONDS = Number(process.env.TRANSCODE_SECONDS ?? 60);

/** CPU seconds (user + system) used so far by this process and the children it has waited for. */
function cpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return fields.slice(11, 15).reduce((a, b) => a + Number(b), 0) / 100;
}

const folderBytes = (dir: string) => readdirSync(dir).reduce((n, f) => n + statSync(path.join(dir, f)).size, 0);
const MB = (bytes: number) => `${fmt(bytes / 1e6, 2)} MB`;

/** Runs the real job on a video row whose source sits in local storage; the HLS folder it stored. */
async function transcode(source: string): Promise<{ hls: string; cpu: number; wall: number }> {
  const dataDir = path.join(root, `job-${path.basename(source, '.mp4')}`);
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error', DATABASE_URL: await ensureDatabase(benchDatabaseUrl()) });
  const ctx = await createContext(config);
  try {
    const ownerId = newId();
    const videoId = newId();
    const sourceKey = originalKey(videoId);
    mkdirSync(path.dirname(path.join(dataDir, 'media', sourceKey)), { recursive: true });
    copyFileSync(source, path.join(dataDir, 'media', sourceKey));
    await ctx.db.insert(users).values({ id: ownerId, userName: `bench${Date.now()}`, fullName: 'Bench', email: `bench${Date.now()}@bench.local`, passwordHash: 'x' });
    await ctx.db.insert(videos).values({ id: videoId, ownerId, title: 'Bench clip', description: '', duration: 0, status: 'processing', privacy: 'public', sourceKey });
    const log = { info: () => {}, error: (o: object, m: string) => console.error(m, o) };
    const c0 = cpuSeconds();
    const t0 = performance.now();
    await transcodeHandler(ctx).run({ videoId }, { jobId: newId(), attempt: 1, signal: new AbortController().signal, heartbeat: async () => {}, log });
    const timing = { cpu: cpuSeconds() - c0, wall: (performance.now() - t0) / 1000 };
    await ctx.db.delete(users).where(eq(users.id, ownerId));
    return { hls: path.join(dataDir, 'media', 'videos', videoId, 'hls'), ...timing };
  } finally {
    await ctx.database.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Uploads `source` to a running app (HTTP, 3 MB chunks) whose worker transcodes it; seconds from
 * sending the last chunk to the lowest rung playing (the master playlist names it and its first
 * segment is served), and to the whole ladder.
 */
async function timeToPlayable(source: string): Promise<{ playable: number; playableCpu: number; whole: number; rungs: string }> {
  const dataDir = path.join(root, 'job-playable');
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error', DATABASE_URL: await ensureDatabase(benchDatabaseUrl()), WORKER_ENABLED: 'false', RATE_LIMITS_ENABLED: 'false' });
  const ctx = await createContext(config);
  const app = await buildApp(ctx);
  const worker = createWorker(ctx, { info: () => {}, error: (o: object, m: string) => console.error(m, o) });
  const ownerId = newId();
  try {
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const userName = `bench${Date.now()}`;
    await ctx.db.insert(users).values({ id: ownerId, userName, fullName: 'Bench', email: `${userName}@bench.local`, passwordHash: 'x' });
    const headers = { authorization: `Bearer ${await ctx.tokens.sign({ id: ownerId, userName })}` };
    worker.start();
    const file = readFileSync(source);
    const total = Math.ceil(file.length / CHUNK_BYTES);
    const send = async (i: number) => {
      const form = new FormData();
      if (i === total - 1) {
        form.append('isLastChunk', 'true');
        form.append('title', 'Bench clip');
      }
      form.append('video', new Blob([file.subarray(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES)]), 'video.mp4');
      const res = await fetch(`${base}/api/v1/videos?uniqueId=bench-${ownerId}&chunkNumber=${i}&totalChunks=${total}`, { method: 'POST', headers, body: form });
      if (!res.ok) throw new Error(`chunk ${i}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<{ data: { video?: { _id: string } } }>;
    };
    for (let i = 0; i < total - 1; i++) await send(i);
    const t0 = performance.now();
    const c0 = cpuSeconds();
    const videoId = (await send(total - 1)).data.video!._id;
    let playable = 0;
    let playableCpu = 0;
    for (;;) {
      const res = await fetch(`${base}/api/v1/videos/${videoId}`, { headers });
      // A busy machine may answer an error now and then (a database timeout): ask again.
      if (!res.ok) {
        console.error(`video answered ${res.status}: ${await res.text()}`);
        await sleep(100);
        continue;
      }
      const video = ((await res.json()) as { data: { video: { status: string; videoFile: { url: string | null }; renditions: { name: string; ready: boolean }[] } } }).data.video;
      if (video.status === 'failed') throw new Error('the transcode failed');
      const ready = video.renditions.filter((r) => r.ready);
      if (!playable && video.videoFile.url && ready.length > 0) {
        const master = await (await fetch(`${base}${video.videoFile.url}`)).text();
        const first = await fetch(`${base}${video.videoFile.url.replace('master.m3u8', `${ready[0]!.name}/seg_00000.m4s`)}`);
        if (master.includes(`${ready[0]!.name}/index.m3u8`) && first.ok) {
          playable = (performance.now() - t0) / 1000;
          // This process and the engine children it has waited for (probe, first pass): the second pass is not counted yet.
          playableCpu = cpuSeconds() - c0;
          console.log(`lowest rung playable ${playable.toFixed(1)} s after the last chunk (${playableCpu.toFixed(1)} CPU-s; load average ${os.loadavg()[0]!.toFixed(1)})`);
        }
      }
      if (ready.length > 0 && ready.length === video.renditions.length) {
        return { playable, playableCpu, whole: (performance.now() - t0) / 1000, rungs: ready.map((r) => r.name).join(', ') };
      }
      await sleep(100);
    }
  } finally {
    await worker.stop();
    await app.close();
    await ctx.db.delete(users).where(eq(users.id, ownerId));
    await ctx.database.close();
  }
}

/** A rendition's init and media segments joined: one fragmented mp4. */
function join(dir: string, out: string): string {
  const names = readdirSync(dir).sort();
  const parts = [...names.filter((n) => n.startsWith('init')), ...names.filter((n) => n.endsWith('.m4s'))];
  writeFileSync(out, Buffer.concat(parts.map((p) => readFileSync(path.join(dir, p)))));
  return out;
}

/** Mean SSIM (all planes) of `encoded` against the source scaled to the same size. */
async function ssim(encoded: string, source: string, width: number, height: number): Promise<number> {
  const stats = `${encoded}.ssim.log`;
  const job: MediaJob = {
    inputs: [{ url: encoded }, { url: source }],
    // Both start at zero: an encoder's start offset (B-frame delay) must not pair frame n with frame n+2.
    graph: `[1:v]setpts=PTS-STARTPTS,scale=${width}:${height}:flags=bicubic,format=yuv420p[ref];[0:v]setpts=PTS-STARTPTS,format=yuv420p[enc];[enc][ref]ssim=stats_file=${stats}[out]`,
    outputs: [{ url: '/dev/null', format: 'null', streams: [{ kind: 'video', label: 'out', codec: 'wrapped_avframe' }] }],
  };
  await media.engine.run(job);
  const values = readFileSync(stats, 'utf8')
    .split('\n')
    .map((l) => Number(/All:([\d.]+)/.exec(l)?.[1]))
    .filter((n) => Number.isFinite(n));
  return values.reduce((a, b) => a + b, 0) / values.length;
}

rmSync(root, { recursive: true, force: true });
mkdirSync(root, { recursive: true });
const clip = (name: string, pattern: string) =>
  media.engine.run(
    clipJob({ out: path.join(root, name), seconds: SECONDS, width: 1920, height: 1080, fps: 25, pattern, container: 'mp4', video: { codec: 'libx264', options: { preset: 'ultrafast', crf: '18' } }, audio: { codec: 'aac', bitrate: 192_000 } }),
  );
const busySource = path.join(root, 'busy.mp4');
const stillSource = path.join(root, 'still.mp4');
await clip('busy.mp4', 'testsrc2');
await clip('still.mp4', 'smptebars');

const loadBefore = os.loadavg()[0]!;
const toPlayable = await timeToPlayable(busySource);
const loadAfter = os.loadavg()[0]!;
const busy = await transcode(busySource);
const still = await transcode(stillSource);

// The former ladder's 240p rung, as it was encoded: fixed bitrate and its own audio track.
const former = path.join(root, 'former-240p.mp4');
await media.engine.run({
  inputs: [{ url: busySource }],
  graph: '[0:v]scale=426:240,setsar=1,format=yuv420p[v];[0:a]aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo[a]',
  outputs: [
    {
      url: former,
      format: 'mp4',
      streams: [
        { kind: 'video', label: 'v', codec: 'libx264', bitrate: 400_000, maxrate: 428_000, bufsize: 800_000, fps: '25', options: { preset: 'veryfast', profile: 'high', 'x264-params': 'keyint=100:min-keyint=100:scenecut=0' } },
        { kind: 'audio', label: 'a', codec: 'aac', bitrate: 128_000 },
      ],
    },
  ],
});

const ladder = selectLadder(1920, 1080, 25);
const rows: string[] = [];
const measured: Record<string, { bytes: number; ssim: number }> = {};
for (const r of ladder) {
  const name = renditionName(r);
  const bytes = folderBytes(path.join(busy.hls, name));
  const value = await ssim(join(path.join(busy.hls, name), path.join(root, `${name}.mp4`)), busySource, r.width, r.height);
  measured[name] = { bytes, ssim: value };
  rows.push(`| ${name} (${r.width}x${r.height}, cap ${r.maxKbps} kbit/s) | ${MB(bytes)} | ${fmt(value, 4)} | ${MB(folderBytes(path.join(still.hls, name)))} |`);
}
const audioBytes = folderBytes(path.join(busy.hls, 'audio'));
const formerSsim = await ssim(former, busySource, 426, 240);
const formerBytes = statSync(former).size;
const busyTotal = ladder.reduce((n, r) => n + measured[renditionName(r)]!.bytes, 0) + audioBytes;
const stillTotal = ladder.reduce((n, r) => n + folderBytes(path.join(still.hls, renditionName(r))), 0) + folderBytes(path.join(still.hls, 'audio'));
const new240 = measured['240p']!;
const cores = os.cpus().length;
const GOAL_240P = 0.5;
const GOAL_STILL = 0.1;
const GOAL_PLAYABLE_S = 10;
const bytes240 = ratio(new240.bytes, formerBytes);
const stillRatio = ratio(stillTotal, busyTotal);
const figures: Figure[] = [
  {
    figure: `240p rung bytes / former fixed-bitrate 240p rung, ${SECONDS} s 1080p25`,
    value: `${fmt(bytes240 * 100, 0)} % (${MB(new240.bytes)} vs ${MB(formerBytes)}), SSIM ${fmt(new240.ssim, 4)} vs ${fmt(formerSsim, 4)}`,
    goal: `<= ${GOAL_240P * 100} % at no lower SSIM`,
    met: bytes240 <= GOAL_240P && new240.ssim >= formerSsim,
  },
  { figure: 'still-picture clip / busy clip, whole ladder', value: `${fmt(stillRatio, 3)} (${MB(stillTotal)} vs ${MB(busyTotal)})`, goal: `< ${GOAL_STILL}`, met: stillRatio < GOAL_STILL },
  { figure: `the job, busy ${SECONDS} s 1080p clip, whole ladder`, value: `${fmt(busy.cpu, 1)} CPU-s, ${fmt(busy.wall, 1)} s wall`, goal: '-', met: null },
  {
    figure: 'last chunk uploaded -> lowest rung playing',
    value: `${fmt(toPlayable.playable, 1)} s (${fmt(toPlayable.playableCpu, 1)} CPU-s); whole ladder ${fmt(toPlayable.whole, 1)} s; load ${fmt(loadBefore, 1)} before`,
    goal: `<= ${GOAL_PLAYABLE_S} s`,
    met: toPlayable.playable <= GOAL_PLAYABLE_S,
  },
];

report('transcode', 'npm run bench -- transcode', [
  `Sources: generated ${SECONDS} s 1920x1080 25 fps clips with a 440 Hz tone, x264 ultrafast crf 18: "busy" is testsrc2 (moving), "still" is smptebars (a still picture). ${await engineVersion()}.`,
  'Each source goes through the real transcode job (probe; first pass: lowest rung, audio, poster, storyboard; second pass: the other rungs; progressive mp4, storage, database rows). SSIM: each rung against the source scaled to the rung\'s size (bicubic), mean over all frames, all planes.',
  '',
  '| rung (busy clip) | bytes | SSIM | bytes, still clip |',
  '|---|---|---|---|',
  ...rows,
  `| audio, one rendition shared by every rung (AAC 128 kbit/s) | ${MB(audioBytes)} | | ${MB(folderBytes(path.join(still.hls, 'audio')))} |`,
  `| former 240p rung: fixed 400 kbit/s video + its own 128 kbit/s audio (encoded in this run) | ${MB(formerBytes)} | ${fmt(formerSsim, 4)} | |`,
  '',
  `- 240p rung: **${MB(new240.bytes)} against the former ${MB(formerBytes)} (${fmt(bytes240 * 100, 0)} %, goal <= ${GOAL_240P * 100} %), SSIM ${fmt(new240.ssim, 4)} against ${fmt(formerSsim, 4)}** (goal: no lower). With the shared audio counted in, a 240p viewer fetches ${MB(new240.bytes + audioBytes)}.`,
  `- still picture vs busy picture, whole ladder with audio: **${MB(stillTotal)} / ${MB(busyTotal)} = ${fmt(stillRatio, 3)}** (goal < ${GOAL_STILL}); video alone: ${fmt(ratio(stillTotal - folderBytes(path.join(still.hls, 'audio')), busyTotal - audioBytes), 3)}`,
  `- time to playable, busy clip uploaded over HTTP (${Math.ceil(statSync(busySource).size / CHUNK_BYTES)} chunks of 3 MB) to the app with its worker: **${fmt(toPlayable.playable, 1)} s from the last chunk to the lowest rung playing (goal <= ${GOAL_PLAYABLE_S} s)**, using ${fmt(toPlayable.playableCpu, 1)} CPU-s (last chunk's assembly and probe, job pick-up, first pass, storage, polling), ${fmt(toPlayable.whole, 1)} s to the whole ladder (${toPlayable.rungs}); 1-minute load average ${fmt(loadBefore, 1)} before, ${fmt(loadAfter, 1)} after (the machine is shared with other work: figures rise with it)`,
  `- job, busy clip: ${fmt(busy.cpu, 1)} CPU-s, ${fmt(busy.wall, 1)} s wall (about ${fmt(busy.cpu / cores, 0)} s on ${cores} idle cores); still clip: ${fmt(still.cpu, 1)} CPU-s, ${fmt(still.wall, 1)} s wall`,
], figures);
