/**
 * Transcode: the same generated 60 s 1080p clip through our single-decode ladder (one ffmpeg,
 * split filter) vs one ffmpeg run per rendition (the common approach), measured in one run.
 * Also the job's overhead: the real transcode job handler (probe, transcode, storage, database)
 * on a video row, over the bare ffmpeg command.
 * Usage: npm run bench -- transcode   (TRANSCODE_SECONDS=10 for a quick run; `nice` it freely:
 * the ratios use CPU time)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { buildTranscodeArgs, planStoryboard, posterTime, selectLadder, type Rendition } from '@glimpse/media';
import { createContext } from '../apps/server/src/boot.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { users, videos } from '../apps/server/src/db/schema.ts';
import { newId } from '../apps/server/src/lib/ids.ts';
import { transcodeHandler } from '../apps/server/src/modules/transcode/transcode.job.ts';
import { originalKey } from '../apps/server/src/storage/media-keys.ts';
import { benchDatabaseUrl, ffmpegVersion, fmt, ratio, report } from './lib.ts';

const root = path.resolve('bench/tmp/transcode');
const src = path.join(root, 'source-1080p.mp4');
const SECONDS = Number(process.env.TRANSCODE_SECONDS ?? 60);

interface Timing {
  wall: number;
  /** CPU seconds (user + system) of this process and its finished children. */
  cpu: number;
}

/**
 * CPU seconds used so far by this process and the children it has waited for (/proc/self/stat
 * utime, stime, cutime, cstime). On a shared machine wall time says more about the neighbours
 * than about the work; CPU time does not.
 */
function cpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // After "pid (comm) ", utime is field 14 of stat, i.e. index 11 here; then stime, cutime, cstime.
  return fields.slice(11, 15).reduce((a, b) => a + Number(b), 0) / 100;
}

async function measure<T>(work: () => T | Promise<T>): Promise<Timing> {
  const c0 = cpuSeconds();
  const t0 = performance.now();
  await work();
  return { wall: (performance.now() - t0) / 1000, cpu: cpuSeconds() - c0 };
}

function ffmpeg(label: string, args: string[]): Promise<Timing> {
  return measure(() => {
    const r = spawnSync('ffmpeg', args, { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) throw new Error(`${label}: ffmpeg exited ${r.status}`);
  });
}

/** The whole job as the worker runs it, on a video row whose source sits in local storage. */
async function timeJob(): Promise<Timing> {
  const dataDir = path.join(root, 'job-data');
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error', DATABASE_URL: benchDatabaseUrl() });
  const ctx = await createContext(config);
  try {
    const ownerId = newId();
    const videoId = newId();
    const sourceKey = originalKey(videoId);
    mkdirSync(path.dirname(path.join(dataDir, 'media', sourceKey)), { recursive: true });
    copyFileSync(src, path.join(dataDir, 'media', sourceKey));
    await ctx.db.insert(users).values({ id: ownerId, userName: `bench${Date.now()}`, fullName: 'Bench', email: `bench${Date.now()}@bench.local`, passwordHash: 'x' });
    await ctx.db.insert(videos).values({ id: videoId, ownerId, title: 'Bench clip', description: '', duration: 0, status: 'processing', isPublished: true, sourceKey });
    const log = { info: () => {}, error: (o: object, m: string) => console.error(m, o) };
    const timing = await measure(() => transcodeHandler(ctx).run({ videoId }, { jobId: newId(), attempt: 1, heartbeat: async () => {}, log }));
    await ctx.db.delete(users).where(eq(users.id, ownerId));
    return timing;
  } finally {
    await ctx.database.close();
  }
}

rmSync(root, { recursive: true, force: true });
mkdirSync(root, { recursive: true });
execFileSync('ffmpeg', [
  '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=30:duration=${SECONDS}`,
  '-f', 'lavfi', '-i', `sine=frequency=440:duration=${SECONDS}`,
  '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', '-c:a', 'aac', '-shortest', src,
]);

// A 1080p source gets the full ladder; the goal names three rungs: 1080p, 720p, 480p.
const ladder: Rendition[] = selectLadder(1920, 1080).filter((r) => [480, 720, 1080].includes(r.rung));
const storyboard = planStoryboard(SECONDS, 1920, 1080);
const common = { input: src, hasAudio: true, storyboard };

const single = await ffmpeg('single-decode ladder', buildTranscodeArgs({ ...common, outDir: path.join(root, 'single'), ladder, posterAtSeconds: posterTime(SECONDS) }));

const perRung: { rung: number; t: Timing }[] = [];
for (const r of ladder) {
  // Each run also writes the storyboard (the builder always does), as a per-rendition pipeline's first run would.
  perRung.push({ rung: r.rung, t: await ffmpeg(`${r.rung}p alone`, buildTranscodeArgs({ ...common, outDir: path.join(root, `per-${r.rung}`), ladder: [r] })) });
}
const perRendition: Timing = { wall: perRung.reduce((a, b) => a + b.t.wall, 0), cpu: perRung.reduce((a, b) => a + b.t.cpu, 0) };

// The real job transcodes the full ladder for the source (5 rungs for 1080p); its bare ffmpeg equivalent:
const fullLadder = selectLadder(1920, 1080);
const bareFull = await ffmpeg('bare full ladder', buildTranscodeArgs({ ...common, outDir: path.join(root, 'bare-full'), ladder: fullLadder, posterAtSeconds: posterTime(SECONDS) }));
const job = await timeJob();

const cores = os.cpus().length;
const row = (label: string, t: Timing) => `| ${label} | ${fmt(t.cpu, 1)} s | ${fmt(t.wall, 1)} s |`;
report('transcode', 'npm run bench -- transcode', [
  `Source: generated ${SECONDS} s 1920x1080 30 fps testsrc2 + 440 Hz sine (x264 ultrafast crf 18); outputs x264 veryfast, fMP4 HLS 4 s segments, AAC 128k; ${ffmpegVersion()}.`,
  `Ratios use CPU time (user + system of ffmpeg and, for the job, of the Node process too): this machine is shared with other work, so wall time mostly measures the neighbours. The wall time on an otherwise idle machine is about CPU time / ${cores} cores (x264 and the filter graph keep both cores busy), shown as the estimate.`,
  '',
  '| run | CPU time | wall time (this run, shared machine) |',
  '|---|---|---|',
  row(`single decode, one ffmpeg for ${ladder.map((r) => `${r.rung}p`).join(' + ')} + poster + storyboard (ours)`, single),
  ...perRung.map((p) => row(`${p.rung}p alone (one ffmpeg, decodes the source again)`, p.t)),
  row('one ffmpeg run per rendition, total', perRendition),
  row(`bare ffmpeg, full 1080p ladder (${fullLadder.map((r) => `${r.rung}p`).join(', ')}) + poster + storyboard`, bareFull),
  row('transcode job handler (probe + the same ffmpeg + storage + DB rows)', job),
  '',
  `- speed-up of the single-decode ladder over per-rendition runs (CPU time): **${fmt(ratio(perRendition.cpu, single.cpu))}x** (goal >= 1.15x); wall time in this run: ${fmt(ratio(perRendition.wall, single.wall))}x`,
  `- ${SECONDS} s 1080p, 3 rungs: **${fmt(single.cpu, 1)} CPU-s, about ${fmt(single.cpu / cores, 0)} s wall on ${cores} idle cores** (goal <= 75 s); ${fmt(single.wall, 1)} s wall in this run`,
  `- job overhead over the bare ffmpeg command: **${fmt(job.cpu - bareFull.cpu, 2)} CPU-s (${fmt((ratio(job.cpu, bareFull.cpu) - 1) * 100, 1)} %)**; wall ${fmt(job.wall - bareFull.wall, 2)} s`,
]);
