/**
 * Transcode: what the ladder costs and what it is worth, with the engine `npm install` brings.
 * A generated 60 s 1080p25 clip (busy moving picture + tone) and a still-picture clip go through
 * the real transcode job; each rung's bytes and its SSIM against the source (scaled to the rung)
 * are measured, beside today's former ladder (fixed 400 kbit/s 240p with its own 128 kbit/s audio)
 * encoded in the same run from the same source.
 * Usage: npm run bench -- transcode   (TRANSCODE_SECONDS=10 for a quick run)
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { clipJob, renditionName, selectLadder, type MediaJob } from '@glimpse/media';
import { createContext } from '../apps/server/src/boot.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { users, videos } from '../apps/server/src/db/schema.ts';
import { newId } from '../apps/server/src/lib/ids.ts';
import { transcodeHandler } from '../apps/server/src/modules/transcode/transcode.job.ts';
import { originalKey } from '../apps/server/src/storage/media-keys.ts';
import { benchDatabaseUrl, engineVersion, fmt, media, ratio, report } from './lib.ts';

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
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error', DATABASE_URL: benchDatabaseUrl() });
  const ctx = await createContext(config);
  try {
    const ownerId = newId();
    const videoId = newId();
    const sourceKey = originalKey(videoId);
    mkdirSync(path.dirname(path.join(dataDir, 'media', sourceKey)), { recursive: true });
    copyFileSync(source, path.join(dataDir, 'media', sourceKey));
    await ctx.db.insert(users).values({ id: ownerId, userName: `bench${Date.now()}`, fullName: 'Bench', email: `bench${Date.now()}@bench.local`, passwordHash: 'x' });
    await ctx.db.insert(videos).values({ id: videoId, ownerId, title: 'Bench clip', description: '', duration: 0, status: 'processing', isPublished: true, sourceKey });
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

report('transcode', 'npm run bench -- transcode', [
  `Sources: generated ${SECONDS} s 1920x1080 25 fps clips with a 440 Hz tone, x264 ultrafast crf 18: "busy" is testsrc2 (moving), "still" is smptebars (a still picture). ${await engineVersion()}.`,
  'Each source goes through the real transcode job (probe, one decode, the whole ladder, poster, storyboard, progressive mp4, storage, database rows). SSIM: each rung against the source scaled to the rung\'s size (bicubic), mean over all frames, all planes.',
  '',
  '| rung (busy clip) | bytes | SSIM | bytes, still clip |',
  '|---|---|---|---|',
  ...rows,
  `| audio, one rendition shared by every rung (AAC 128 kbit/s) | ${MB(audioBytes)} | | ${MB(folderBytes(path.join(still.hls, 'audio')))} |`,
  `| former 240p rung: fixed 400 kbit/s video + its own 128 kbit/s audio (encoded in this run) | ${MB(formerBytes)} | ${fmt(formerSsim, 4)} | |`,
  '',
  `- 240p rung: **${MB(new240.bytes)} against the former ${MB(formerBytes)} (${fmt(ratio(new240.bytes, formerBytes) * 100, 0)} %, goal <= 50 %), SSIM ${fmt(new240.ssim, 4)} against ${fmt(formerSsim, 4)}** (goal: no lower). With the shared audio counted in, a 240p viewer fetches ${MB(new240.bytes + audioBytes)}.`,
  `- still picture vs busy picture, whole ladder with audio: **${MB(stillTotal)} / ${MB(busyTotal)} = ${fmt(ratio(stillTotal, busyTotal), 3)}** (goal < 0.1); video alone: ${fmt(ratio(stillTotal - folderBytes(path.join(still.hls, 'audio')), busyTotal - audioBytes), 3)}`,
  `- job, busy clip: ${fmt(busy.cpu, 1)} CPU-s, ${fmt(busy.wall, 1)} s wall (about ${fmt(busy.cpu / cores, 0)} s on ${cores} idle cores); still clip: ${fmt(still.cpu, 1)} CPU-s, ${fmt(still.wall, 1)} s wall`,
]);
