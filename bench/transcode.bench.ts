/**
 * Transcode: the same generated 60 s 1080p clip through our single-decode ladder (one ffmpeg,
 * split filter) vs one ffmpeg run per rendition (the common approach), measured in one run.
 * Also the job's overhead: the real transcode job handler (probe, transcode, storage, database)
 * on a video row, over the bare ffmpeg command.
 * Usage: npm run bench -- transcode   (TRANSCODE_SECONDS=10 for a quick run)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { buildTranscodeArgs, planStoryboard, posterTime, selectLadder, type Rendition } from '@glimpse/media';
import { createContext } from '../apps/server/src/boot.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { users, videos } from '../apps/server/src/db/schema.ts';
import { newId } from '../apps/server/src/lib/ids.ts';
import { transcodeHandler } from '../apps/server/src/modules/transcode/transcode.job.ts';
import { benchDatabaseUrl, ffmpegVersion, fmt, ratio, report } from './lib.ts';

const root = path.resolve('bench/tmp/transcode');
const src = path.join(root, 'source-1080p.mp4');
const SECONDS = Number(process.env.TRANSCODE_SECONDS ?? 60);

function time(label: string, args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync('ffmpeg', args, { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`${label}: ffmpeg exited ${r.status}`);
  return (performance.now() - t0) / 1000;
}

/** The whole job as the worker runs it, on a video row whose source sits in local storage. */
async function timeJob(): Promise<number> {
  const dataDir = path.join(root, 'job-data');
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error', DATABASE_URL: benchDatabaseUrl() });
  const ctx = await createContext(config);
  try {
    const ownerId = newId();
    const videoId = newId();
    const sourceKey = `videos/${videoId}/source.mp4`;
    mkdirSync(path.join(dataDir, 'media', `videos/${videoId}`), { recursive: true });
    copyFileSync(src, path.join(dataDir, 'media', sourceKey));
    await ctx.db.insert(users).values({ id: ownerId, userName: `bench${Date.now()}`, fullName: 'Bench', email: `bench${Date.now()}@bench.local`, passwordHash: 'x' });
    await ctx.db.insert(videos).values({ id: videoId, ownerId, title: 'Bench clip', description: '', duration: 0, status: 'processing', isPublished: true, sourceKey });
    const log = { info: () => {}, error: (o: object, m: string) => console.error(m, o) };
    const t0 = performance.now();
    await transcodeHandler(ctx).run({ videoId }, { jobId: newId(), attempt: 1, heartbeat: async () => {}, log });
    const seconds = (performance.now() - t0) / 1000;
    await ctx.db.delete(users).where(eq(users.id, ownerId));
    return seconds;
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

const single = time('single-decode ladder', buildTranscodeArgs({ ...common, outDir: path.join(root, 'single'), ladder, posterAtSeconds: posterTime(SECONDS) }));

const perRung: { rung: number; seconds: number }[] = [];
for (const r of ladder) {
  // Each run also writes the storyboard (the builder always does), as a per-rendition pipeline's first run would.
  perRung.push({ rung: r.rung, seconds: time(`${r.rung}p alone`, buildTranscodeArgs({ ...common, outDir: path.join(root, `per-${r.rung}`), ladder: [r] })) });
}
const perRendition = perRung.reduce((a, b) => a + b.seconds, 0);

// The real job transcodes the full ladder for the source (5 rungs for 1080p); its bare ffmpeg equivalent:
const fullLadder = selectLadder(1920, 1080);
const bareFull = time('bare full ladder', buildTranscodeArgs({ ...common, outDir: path.join(root, 'bare-full'), ladder: fullLadder, posterAtSeconds: posterTime(SECONDS) }));
const job = await timeJob();

report('transcode', 'npm run bench -- transcode', [
  `Source: generated ${SECONDS} s 1920x1080 30 fps testsrc2 + 440 Hz sine (x264 ultrafast crf 18); outputs x264 veryfast, fMP4 HLS 4 s segments, AAC 128k; ${ffmpegVersion()}.`,
  '',
  '| run | wall time |',
  '|---|---|',
  `| single decode, one ffmpeg for ${ladder.map((r) => `${r.rung}p`).join(' + ')} + poster + storyboard (ours) | ${fmt(single, 1)} s |`,
  ...perRung.map((p) => `| ${p.rung}p alone (one ffmpeg, decodes the source again) | ${fmt(p.seconds, 1)} s |`),
  `| one ffmpeg run per rendition, total | ${fmt(perRendition, 1)} s |`,
  `| bare ffmpeg, full 1080p ladder (${fullLadder.map((r) => `${r.rung}p`).join(', ')}) | ${fmt(bareFull, 1)} s |`,
  `| transcode job handler (probe + same ffmpeg + storage + DB rows) | ${fmt(job, 1)} s |`,
  '',
  `- speed-up of the single-decode ladder over per-rendition runs: **${fmt(ratio(perRendition, single))}x** (goal >= 1.15x)`,
  `- ${SECONDS} s 1080p, 3 rungs, fully transcoded in **${fmt(single, 1)} s** (goal <= 75 s)`,
  `- job overhead over the bare ffmpeg command: **${fmt(job - bareFull, 2)} s** (${fmt((ratio(job, bareFull) - 1) * 100, 1)} %)`,
]);
