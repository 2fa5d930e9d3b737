/**
 * Transcode: what the ladder costs and what it is worth against PeerTube's, with the engine
 * `npm install` brings. A corpus is made at bench time (bench/corpus.ts: a synthetic pattern,
 * photographs panned and zoomed with grain and a cut, a screen recording; 1080p25 with AAC).
 * Each clip goes through Glimpse's real transcode job and through PeerTube's ladder rebuilt from
 * its command lines (bench/peertube-ladder.ts), in alternating order; per rung: video bytes and
 * SSIM against the source (scaled to the rung) of both; what a 240p viewer downloads (video and
 * audio); whole-ladder CPU and wall time; the load average at each step.
 * Time to playable (ADR 019): the synthetic clip is uploaded over HTTP in 3 MB chunks to the app
 * with its worker running, as `npm start` runs them, and the owner's page polled every 100 ms
 * from the last chunk until the master playlist names a rung and its first segment is served.
 * Usage: npm run bench -- transcode   (TRANSCODE_SECONDS=10 for a quick run, TRANSCODE_ONLY=playable
 * for time to playable alone; the footage clip
 * needs `apt-get install gnome-backgrounds` and is skipped, with that message, without it)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, copyFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { clipJob, CRF_PROBE, renditionName, selectLadder, X264_PRESETS, type CrfChoice, type Rendition } from '@glimpse/media';
import { CHUNK_BYTES } from '@glimpse/contract';
import { buildApp } from '../apps/server/src/app.ts';
import { createContext } from '../apps/server/src/boot.ts';
import { createWorker } from '../apps/server/src/worker.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { users, videos } from '../apps/server/src/db/schema.ts';
import { newId } from '../apps/server/src/lib/ids.ts';
import { startVariant } from '../apps/server/src/modules/media-access/hls-start.ts';
import { transcodeHandler } from '../apps/server/src/modules/transcode/transcode.job.ts';
import { originalKey } from '../apps/server/src/storage/media-keys.ts';
import { makeCorpus, type CorpusClip } from './corpus.ts';
import { benchDatabaseUrl, coresBetween, cpuSeconds, engineVersion, ensureDatabase, fmt, loadNow, machineCpu, media, ratio, report, type Figure } from './lib.ts';
import { peertubeLadder, peertubeTargetBitrate, RESOLUTIONS, x264, type PeerTubeLadder } from './peertube-ladder.ts';
import { join, rungEncodesJob, scaleOnlyJob, ssims } from './quality.ts';
import { bytesAt, dbPerStep, type CurvePoint } from './rate-quality.ts';

const root = path.resolve('bench/tmp/transcode');
const SECONDS = Number(process.env.TRANSCODE_SECONDS ?? 60);
const GOAL_BYTES = 0.8;
const GOAL_CPU = 0.7;
const GOAL_WALL = 0.5;
const GOAL_STILL = 0.1;
const GOAL_PLAYABLE_S = 10;

const folderBytes = (dir: string) => readdirSync(dir).reduce((n, f) => n + statSync(path.join(dir, f)).size, 0);
const MB = (bytes: number) => `${fmt(bytes / 1e6, 2)} MB`;

/** What the job's CRF probe chose for a video (its log line), and its wall time. */
interface ProbeLog {
  crfs: CrfChoice[];
  seconds: number;
}

/** Runs the real job on a video row whose source sits in local storage; the HLS folder it stored, and its CRF probe. */
async function transcode(source: string): Promise<{ hls: string; cpu: number; wall: number; probe?: ProbeLog }> {
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
    let probe: ProbeLog | undefined;
    const log = { info: (o: object, m: string) => void (m === 'CRF probe' && (probe = o as ProbeLog)), error: (o: object, m: string) => console.error(m, o) };
    const c0 = cpuSeconds();
    const t0 = performance.now();
    await transcodeHandler(ctx).run({ videoId }, { jobId: newId(), attempt: 1, signal: new AbortController().signal, heartbeat: async () => {}, log });
    const timing = { cpu: cpuSeconds() - c0, wall: (performance.now() - t0) / 1000 };
    await ctx.db.delete(users).where(eq(users.id, ownerId));
    return { hls: path.join(dataDir, 'media', 'videos', videoId, 'hls'), ...timing, probe };
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
async function timeToPlayable(source: string): Promise<{ playable: number; playableCpu: number; cores: string; whole: number; rungs: string }> {
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
    await worker.start();
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
    const m0 = machineCpu();
    const videoId = (await send(total - 1)).data.video!._id;
    let playable = 0;
    let playableCpu = 0;
    let cores = '';
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
        // The variant a player starts with, as the watch page preloads it (its folder may be the first pass's fast one).
        const variant = startVariant(master)?.uri;
        const first = variant && (await fetch(`${base}${video.videoFile.url.replace('master.m3u8', variant.replace('index.m3u8', 'seg_00000.m4s'))}`));
        if (first && first.ok) {
          playable = (performance.now() - t0) / 1000;
          // This process and the engine children it has waited for (probe, first pass): the second pass is not counted yet.
          playableCpu = cpuSeconds() - c0;
          // What the whole machine did meanwhile: a first pass short of cores shows here (busy elsewhere, or stolen by the host).
          cores = coresBetween(m0, machineCpu(), playable);
          console.log(`lowest rung playable ${playable.toFixed(1)} s after the last chunk (${playableCpu.toFixed(1)} CPU-s; ${cores}; load average ${os.loadavg()[0]!.toFixed(1)})`);
        }
      }
      if (ready.length > 0 && ready.length === video.renditions.length) {
        return { playable, playableCpu, cores, whole: (performance.now() - t0) / 1000, rungs: ready.map((r) => r.name).join(', ') };
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

const step = (what: string) => console.log(`${new Date().toISOString().slice(11, 19)} ${what}; load average ${loadNow()}`);

/** The CPU seconds of an engine process that does nothing: PeerTube's ffmpeg starts in milliseconds, ours in a Node child. */
async function engineStartCpu(): Promise<number> {
  const c0 = cpuSeconds();
  for (let i = 0; i < 3; i++) {
    await media.engine.run({
      inputs: [{ url: 'color=size=16x16:rate=1:duration=1', format: 'lavfi' }],
      graph: '[0:v]null[v]',
      outputs: [{ url: '/dev/null', format: 'null', streams: [{ kind: 'video', label: 'v', codec: 'wrapped_avframe' }] }],
    });
  }
  return (cpuSeconds() - c0) / 3;
}

/**
 * The least CPU a five-rung ladder at PeerTube's preset costs on this clip: PeerTube's own x264
 * encodes (its options and caps, bench/peertube-ladder.ts) fed from one decode of the source,
 * each rung scaled from it, in one engine run, without audio, playlists or storage; one engine
 * start less. Set against PeerTube's ladder it says how low any ladder of these encodes can go.
 */
async function ladderFloor(clip: CorpusClip, startCpu: number): Promise<number> {
  const dir = path.join(root, `floor-${clip.name}`);
  mkdirSync(dir, { recursive: true });
  const rungs = RESOLUTIONS;
  const sourceRate = (statSync(clip.file).size * 8) / SECONDS;
  const c0 = cpuSeconds();
  await media.engine.run({
    inputs: [{ url: clip.file }],
    graph: `[0:v]split=${rungs.length}${rungs.map((r) => `[s${r}]`).join('')};${rungs.map((r) => `[s${r}]scale=w=-2:h=${r},fps=25,format=yuv420p[v${r}]`).join(';')}`,
    outputs: rungs.map((r) => ({ url: path.join(dir, `${r}.mp4`), format: 'mp4', streams: [x264(peertubeTargetBitrate(r, 16 / 9, 25, sourceRate), 25, `v${r}`)] })),
  });
  const cpu = cpuSeconds() - c0 - startCpu;
  rmSync(dir, { recursive: true, force: true });
  return cpu;
}

/** The rate-quality curves run on a short corpus: a slower preset on 60 s of 1080p would add minutes. */
const CURVE_SECONDS = 10;
/** CRF steps above the rung's own that each curve encodes (its own CRF included). */
const CURVE_STEPS = [0, 2, 4];

/** A rung over the bytes goal and what its rate-quality curves said on the short clip. */
interface Reach {
  rung: Rendition;
  /** PeerTube's rendition of the short clip: video bytes and SSIM. */
  theirs: { bytes: number; ssim: number };
  curves: { preset: string; points: CurvePoint[]; encodeCpu: number }[];
}

/**
 * Why a rung misses the bytes goal: on a short clip of the same corpus, PeerTube's ladder again,
 * and the rung's rate-quality curve (its CRF and two higher, under its cap, the job's scale,
 * keyframes and B-frames) at its own preset and a slower one (slow, or slower where the rung is
 * slow already), each encode's CPU less a decode-and-scale-only run. The bytes each curve needs at
 * PeerTube's SSIM say whether the rung's CRF, its preset or x264 itself stands in the way.
 */
async function reachBytesGoal(clip: CorpusClip, missed: Rendition[]): Promise<Reach[]> {
  const dir = path.join(root, `reach-${clip.name}`);
  const pt = await peertubeLadder(clip.file, path.join(dir, 'peertube'), { width: 1920, height: 1080, fps: 25, seconds: CURVE_SECONDS });
  const out: Reach[] = [];
  for (const rung of missed) {
    const size = { width: rung.width, height: rung.height };
    const c0 = cpuSeconds();
    await media.engine.run(scaleOnlyJob(clip.file, size));
    const decodeCpu = cpuSeconds() - c0;
    const own = X264_PRESETS.indexOf(rung.preset);
    const presets = [rung.preset, X264_PRESETS[Math.max(own + 1, X264_PRESETS.indexOf('slow'))]!];
    const encodes = presets.map((preset) => CURVE_STEPS.map((step) => ({ preset, crf: rung.crf + step, file: path.join(dir, `${rung.rung}-${preset}-${rung.crf + step}.mp4`) })));
    const encodeCpu: number[] = [];
    for (const runs of encodes) {
      const c = cpuSeconds();
      await media.engine.run(rungEncodesJob(clip.file, runs.map((e) => ({ ...size, file: e.file, preset: e.preset, crf: String(e.crf), maxKbps: rung.maxKbps }))));
      encodeCpu.push(cpuSeconds() - c - decodeCpu);
    }
    const theirs = pt.renditions.find((x) => x.resolution === rung.rung)!;
    const values = await ssims(clip.file, [...encodes.flat(), theirs].map((e) => ({ file: e.file, ...size })));
    out.push({
      rung,
      theirs: { bytes: theirs.bytes - pt.audioBytes, ssim: values.at(-1)! },
      curves: encodes.map((runs, k) => ({
        preset: presets[k]!,
        points: runs.map((e, i) => ({ crf: e.crf, bytes: statSync(e.file).size, ssim: values[k * runs.length + i]! })),
        encodeCpu: encodeCpu[k]!,
      })),
    });
  }
  rmSync(dir, { recursive: true, force: true });
  return out;
}

interface ClipResult {
  clip: CorpusClip;
  ladder: Rendition[];
  /** The ladder as the job made it for this clip: each rung at the CRF its probe chose. */
  ours: { cpu: number; wall: number; video: Record<string, { bytes: number; ssim: number }>; audio: number; probe?: ProbeLog };
  theirs: PeerTubeLadder & { ssim: Record<number, number>; cpuLessStarts: number };
  /** ladderFloor's CPU-s on this clip. */
  floor: number;
  /** The rungs over the bytes goal, and their rate-quality curves on the short clip. */
  reach: Reach[];
  loads: string[];
}

/** The bytes goal for one rung: at most its share of PeerTube's video bytes, at an SSIM no lower. */
const bytesGoalMet = (mine: { bytes: number; ssim: number }, theirs: { bytes: number; ssim: number }) =>
  ratio(mine.bytes, theirs.bytes) <= GOAL_BYTES && mine.ssim >= theirs.ssim;

/** Each rung of a clip beside PeerTube's: video bytes, SSIM, their ratio and whether the bytes goal is met. */
function rungRows({ ladder, ours, theirs }: ClipResult) {
  return ladder.map((l) => {
    const name = renditionName(l);
    const mine = ours.video[name]!;
    const pt = theirs.renditions.find((x) => x.resolution === l.rung)!;
    const ptVideo = pt.bytes - theirs.audioBytes;
    const q = ratio(mine.bytes, ptVideo);
    return { name, l, mine, pt, ptVideo, q, ptSsim: theirs.ssim[l.rung]!, met: bytesGoalMet(mine, { bytes: ptVideo, ssim: theirs.ssim[l.rung]! }) };
  });
}

/** Both ladders on one clip, PeerTube's first when `theirsFirst`; bytes and SSIM per rung. */
async function compare(clip: CorpusClip, theirsFirst: boolean, startCpu: number): Promise<ClipResult> {
  const loads: string[] = [];
  const mark = (what: string) => {
    step(`${clip.name}: ${what}`);
    loads.push(`${what} ${loadNow()}`);
  };
  let ladder = selectLadder(1920, 1080, 25);
  let ours: Awaited<ReturnType<typeof transcode>> | undefined;
  let theirs: PeerTubeLadder | undefined;
  const runOurs = async () => {
    mark('Glimpse starts');
    ours = await transcode(clip.file);
    mark(`Glimpse done (${fmt(ours.cpu, 1)} CPU-s, ${fmt(ours.wall, 1)} s)`);
  };
  const runTheirs = async () => {
    mark('PeerTube starts');
    theirs = await peertubeLadder(clip.file, path.join(root, `peertube-${clip.name}`), { width: 1920, height: 1080, fps: 25, seconds: SECONDS });
    mark(`PeerTube done (${fmt(theirs.cpu, 1)} CPU-s, ${fmt(theirs.wall, 1)} s)`);
  };
  if (theirsFirst) {
    await runTheirs();
    await runOurs();
  } else {
    await runOurs();
    await runTheirs();
  }
  const o = ours!;
  const t = theirs!;
  ladder = ladder.map((r) => ({ ...r, crf: o.probe?.crfs.find((c) => c.rung === r.rung)?.crf ?? r.crf }));
  const files = [
    ...ladder.map((r) => ({ file: join(path.join(o.hls, renditionName(r)), path.join(root, `${clip.name}-${renditionName(r)}.mp4`)), width: r.width, height: r.height })),
    ...t.renditions.map((r) => ({ file: r.file, width: ladder.find((l) => l.rung === r.resolution)!.width, height: r.resolution })),
  ];
  const values = await ssims(clip.file, files);
  mark('SSIM measured');
  const floor = await ladderFloor(clip, startCpu);
  mark(`the floor at PeerTube's preset measured (${fmt(floor, 1)} CPU-s)`);
  const video = Object.fromEntries(ladder.map((r, i) => [renditionName(r), { bytes: folderBytes(path.join(o.hls, renditionName(r))), ssim: values[i]! }]));
  const ssim = Object.fromEntries(t.renditions.map((r, i) => [r.resolution, values[ladder.length + i]!]));
  // Our engine starts a Node child per command (about half a CPU-second); PeerTube's ffmpeg does not.
  const cpuLessStarts = t.cpu - startCpu * t.steps.length;
  return { clip, ladder, ours: { cpu: o.cpu, wall: o.wall, video, audio: folderBytes(path.join(o.hls, 'audio')), probe: o.probe }, theirs: { ...t, ssim, cpuLessStarts }, floor, reach: [], loads };
}

rmSync(root, { recursive: true, force: true });
mkdirSync(root, { recursive: true });
step('making the corpus');
const corpus = await makeCorpus(root, SECONDS);
const stillSource = path.join(root, 'still.mp4');
await media.engine.run(
  clipJob({ out: stillSource, seconds: SECONDS, width: 1920, height: 1080, fps: 25, pattern: 'smptebars', container: 'mp4', video: { codec: 'libx264', options: { preset: 'ultrafast', crf: '18' } }, audio: { codec: 'aac', bitrate: 192_000 } }),
);
const busySource = corpus.clips.find((c) => c.name === 'synthetic')!.file;
// The corpus's own writeback (several hundred MB) out of the way first, so that time to playable
// measures none of the bench's own disk work (it did not explain that figure's spread: ADR 025).
execFileSync('sync');
step('corpus on disk (sync)');

const startCpu = await engineStartCpu();
step(`engine start: ${fmt(startCpu, 2)} CPU-s`);
const loadBefore = os.loadavg()[0]!;
const toPlayable = await timeToPlayable(busySource);
const loadAfter = os.loadavg()[0]!;
if (process.env.TRANSCODE_ONLY === 'playable') {
  // Time to playable alone (to compare ladder settings, LADDER_FIRST_PRESET=...): nothing is written.
  console.log(`${fmt(toPlayable.playable, 1)} s to playable (${fmt(toPlayable.playableCpu, 1)} CPU-s; the machine meanwhile: ${toPlayable.cores}), ${fmt(toPlayable.whole, 1)} s to the whole ladder; load ${fmt(loadBefore, 1)} before, ${fmt(loadAfter, 1)} after`);
  process.exit(0);
}
const results: ClipResult[] = [];
for (const [i, clip] of corpus.clips.entries()) results.push(await compare(clip, i % 2 === 1, startCpu));
step('still clip');
const still = await transcode(stillSource);
const short = await makeCorpus(path.join(root, 'short'), CURVE_SECONDS);
for (const r of results) {
  const missed = rungRows(r).flatMap((x) => (x.met ? [] : [x.l]));
  if (missed.length === 0) continue;
  r.reach = await reachBytesGoal(short.clips.find((c) => c.name === r.clip.name)!, missed);
  r.loads.push(`rate-quality curves of ${missed.map(renditionName).join(', ')} on the ${CURVE_SECONDS} s clip ${loadNow()}`);
  step(`${r.clip.name}: rate-quality curves of ${missed.map(renditionName).join(', ')}`);
}

const signed = (n: number) => `${n >= 0 ? '+' : ''}${fmt(n, 4)}`;

/** A curve's bytes at PeerTube's SSIM, as a share of PeerTube's bytes ('>0.99' when only bounded). */
function neededAt(x: Reach, curve: Reach['curves'][number]): { share: number; text: string } {
  const at = bytesAt(curve.points, x.theirs.ssim);
  const share = ratio(at.bytes, x.theirs.bytes);
  return { share: at.bound === '>' ? Infinity : share, text: `${at.bound}${fmt(share, 2)}x` };
}

/** What the rate-quality curves said per rung (reachBytesGoal), for the report. */
function reachLines(reach: Reach[]): string[] {
  if (reach.length === 0) return [];
  return [
    `- why the rungs over the bytes goal miss it: on a ${CURVE_SECONDS} s clip of the same kind, PeerTube's ladder again and each rung's rate-quality curve (its CRF and ${CURVE_STEPS.slice(1).map((n) => `+${n}`).join(', ')}, under its cap) at its own preset and a slower one; the bytes each needs at PeerTube's SSIM (log bytes interpolated in SSIM; ">" where its lowest CRF stays under that SSIM), the SSIM decibels each CRF step loses per halving of the bytes (small: bits on what SSIM barely sees, which a higher CRF for this video would save), and the encode CPU-s (less a decode-and-scale-only run):`,
    ...reach.map((x) => {
      const [own, slower] = x.curves as [Reach['curves'][number], Reach['curves'][number]];
      const setting = own.points[0]!;
      const curves = x.curves
        .map((c) => {
          const steps = dbPerStep(c.points).map((d) => fmt(d, 1));
          return `${c.preset} (CRF ${c.points.map((p) => p.crf).join('/')}: ${c.points.map((p) => `${fmt(ratio(p.bytes, x.theirs.bytes), 2)}x at ${fmt(p.ssim, 4)}`).join(', ')}; ${steps.join('/')} dB per halving; ${fmt(c.encodeCpu, 1)} CPU-s) needs ${neededAt(x, c).text}`;
        })
        .join('; ');
      const verdict = bytesGoalMet(setting, x.theirs)
        ? `the rung's own setting meets the goal on this clip (${fmt(ratio(setting.bytes, x.theirs.bytes), 2)}x at ${signed(setting.ssim - x.theirs.ssim)}): the miss is the longer clip's`
        : neededAt(x, own).share <= GOAL_BYTES
          ? `a higher CRF at the rung's own preset meets it: the job's CRF probe did not take it there (it takes one step of ${CRF_PROBE.step}, where that step loses under ${CRF_PROBE.maxDbPerHalving} dB per halving on its windows)`
          : neededAt(x, slower).share <= GOAL_BYTES
            ? `only ${slower.preset} meets it, at ${fmt(ratio(slower.encodeCpu, own.encodeCpu), 1)}x the encode CPU of ${own.preset}, against the CPU goal`
            : `neither preset meets it: at PeerTube's SSIM x264 needs more than ${GOAL_BYTES}x its bytes here`;
      return `  - ${renditionName(x.rung)} (PeerTube ${MB(x.theirs.bytes)} at SSIM ${fmt(x.theirs.ssim, 4)}): ${curves}. **${verdict}.**`;
    }),
  ];
}

const lines: string[] = [];
const figures: Figure[] = [];
for (const r of results) {
  const { ours, theirs } = r;
  const rows = rungRows(r);
  const low = rows[0]!;
  const download = ratio(low.mine.bytes + ours.audio, low.pt.bytes);
  const cpu = ratio(ours.cpu, theirs.cpuLessStarts);
  const floor = ratio(r.floor, theirs.cpuLessStarts);
  const wall = ratio(ours.wall, theirs.wall);
  lines.push(
    `### ${r.clip.name}: ${r.clip.about}`,
    '',
    '| rung | Glimpse video | SSIM | PeerTube video (maxrate) | SSIM | bytes ratio | SSIM difference |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (x) =>
        `| ${x.name} (CRF ${x.l.crf} ${x.l.preset}, cap ${x.l.maxKbps} kbit/s) | ${MB(x.mine.bytes)} | ${fmt(x.mine.ssim, 4)} | ${MB(x.ptVideo)} (${fmt(x.pt.maxrate / 1000, 0)} kbit/s) | ${fmt(x.ptSsim, 4)} | ${fmt(x.q, 2)} | ${signed(x.mine.ssim - x.ptSsim)} |`,
    ),
    `| audio | ${MB(ours.audio)} once (AAC ${128} kbit/s) | | ${MB(theirs.audioBytes)} in every rendition (copied) | | | |`,
    '',
    `- 240p viewer (video + audio): Glimpse ${MB(low.mine.bytes + ours.audio)}, PeerTube ${MB(low.pt.bytes)}: **${fmt(download, 2)}x** (goal <= ${GOAL_BYTES})`,
    ours.probe
      ? `- the job's CRF probe (${CRF_PROBE.at.length} windows of ${CRF_PROBE.windowSeconds} s encoded at each rung's CRF and +${CRF_PROBE.step}, their SSIM; a step losing under ${CRF_PROBE.maxDbPerHalving} dB per halving of the bytes is taken), ${fmt(ours.probe.seconds, 1)} s of the job's wall: ${ours.probe.crfs.map((c) => `${c.rung}p CRF ${c.crf} (${fmt(c.dbPerHalving, 2)} dB)`).join(', ')}`
      : '- the job did not probe this clip for its CRFs',
    `- whole ladder: Glimpse ${fmt(ours.cpu, 1)} CPU-s, ${fmt(ours.wall, 1)} s wall; PeerTube ${fmt(theirs.cpu, 1)} CPU-s (${fmt(theirs.cpuLessStarts, 1)} less its ${theirs.steps.length} engine starts of ${fmt(startCpu, 2)} CPU-s, the figure compared), ${fmt(theirs.wall, 1)} s wall, playable after ${fmt(theirs.playable, 1)} s: **CPU ${fmt(cpu, 2)}x, wall ${fmt(wall, 2)}x** (goals <= ${GOAL_CPU}, <= ${GOAL_WALL})`,
    `- the least a ladder at PeerTube's preset costs here: its five x264 encodes (its options and caps) from one decode of the source, each rung scaled from it, no audio, playlists or storage: ${fmt(r.floor, 1)} CPU-s, **${fmt(floor, 2)}x** PeerTube's ladder; on ${os.cpus().length} cores at least ${fmt(r.floor / os.cpus().length, 1)} s, **${fmt(ratio(r.floor / os.cpus().length, theirs.wall), 2)}x** its wall. ${floor > GOAL_CPU ? `Above the CPU goal (${GOAL_CPU}): no ladder of these encodes reaches it; only a faster preset (more bytes at equal SSIM) or a cheaper encoder would` : `Under the CPU goal (${GOAL_CPU}): the rest of Glimpse's share is its own work`} (Glimpse's slower presets buy the bytes above).`,
    ...reachLines(r.reach),
    `- PeerTube's steps: ${theirs.steps.join('; ')}`,
    `- load average at each step: ${r.loads.join('; ')}`,
    '',
  );
  figures.push(
    {
      figure: `${r.clip.name}: Glimpse / PeerTube video bytes per rung (SSIM difference), ${SECONDS} s 1080p25`,
      value: rows.map((x) => `${x.name} ${fmt(x.q, 2)} (${signed(x.mine.ssim - x.ptSsim)})`).join(', '),
      goal: `every rung <= ${GOAL_BYTES} at SSIM >= PeerTube's`,
      met: rows.every((x) => x.met),
    },
    ...(r.reach.length > 0
      ? [
          {
            figure: `${r.clip.name}: the rungs over the bytes goal, bytes they need at PeerTube's SSIM on a ${CURVE_SECONDS} s clip / PeerTube's, own preset / a slower one (its encode CPU / own's)`,
            value: r.reach
              .map((x) => `${renditionName(x.rung)} ${x.curves.map((c) => `${neededAt(x, c).text} ${c.preset}`).join(' / ')} (${fmt(ratio(x.curves[1]!.encodeCpu, x.curves[0]!.encodeCpu), 1)}x CPU)`)
              .join(', '),
            goal: '-',
            met: null,
          },
        ]
      : []),
    { figure: `${r.clip.name}: 240p viewer's download (video + audio) / PeerTube's`, value: `${fmt(download, 2)} (${MB(low.mine.bytes + ours.audio)} vs ${MB(low.pt.bytes)})`, goal: `<= ${GOAL_BYTES}`, met: download <= GOAL_BYTES },
    {
      figure: `${r.clip.name}: whole ladder CPU and wall / PeerTube's`,
      value: `CPU ${fmt(cpu, 2)} (${fmt(ours.cpu, 1)} vs ${fmt(theirs.cpuLessStarts, 1)} CPU-s; PeerTube's encodes from one decode alone ${fmt(floor, 2)}), wall ${fmt(wall, 2)} (${fmt(ours.wall, 1)} vs ${fmt(theirs.wall, 1)} s)`,
      goal: `CPU <= ${GOAL_CPU}, wall <= ${GOAL_WALL}`,
      met: cpu <= GOAL_CPU && wall <= GOAL_WALL,
    },
  );
}
const synthetic = results.find((r) => r.clip.name === 'synthetic')!;
const busyTotal = Object.values(synthetic.ours.video).reduce((n, v) => n + v.bytes, 0) + synthetic.ours.audio;
const stillTotal = synthetic.ladder.reduce((n, r) => n + folderBytes(path.join(still.hls, renditionName(r))), 0) + folderBytes(path.join(still.hls, 'audio'));
const stillRatio = ratio(stillTotal, busyTotal);
figures.push(
  { figure: 'still-picture clip / synthetic clip, whole ladder', value: `${fmt(stillRatio, 3)} (${MB(stillTotal)} vs ${MB(busyTotal)})`, goal: `< ${GOAL_STILL}`, met: stillRatio < GOAL_STILL },
  {
    figure: 'last chunk uploaded -> lowest rung playing',
    value: `${fmt(toPlayable.playable, 1)} s (${fmt(toPlayable.playableCpu, 1)} CPU-s; the machine meanwhile: ${toPlayable.cores}); whole ladder ${fmt(toPlayable.whole, 1)} s; load ${fmt(loadBefore, 1)} before`,
    goal: `<= ${GOAL_PLAYABLE_S} s`,
    met: toPlayable.playable <= GOAL_PLAYABLE_S,
  },
);

report('transcode', `${SECONDS === 60 ? '' : `TRANSCODE_SECONDS=${SECONDS} `}npm run bench -- transcode`, [
  `Corpus: ${SECONDS} s 1920x1080 25 fps clips with a 440 Hz tone (AAC 192 kbit/s), x264 ultrafast CRF 18 capped at 40 Mbit/s, made by bench/corpus.ts. ${await engineVersion()}.${corpus.skipped.length ? ` Skipped: ${corpus.skipped.join('; ')}.` : ''}`,
  'Glimpse: the real transcode job (probe; first pass: lowest rung, audio, poster, storyboard; second pass: the other rungs; progressive mp4, storage, database rows). PeerTube: its ladder rebuilt from its command lines (bench/peertube-ladder.ts: optimize to 1080p at veryfast under its bitrate table, its HLS copy, the lower rungs from that 1080p file, audio copied into each; threads 1, one command at a time, its defaults), run with the same engine. The order alternates per clip. SSIM: each rung against the source scaled to the rung\'s size (bicubic), mean over all frames, all planes. PeerTube\'s video bytes are its rendition\'s bytes less its copy of the audio.',
  '',
  ...lines,
  `- still picture vs synthetic clip, whole ladder with audio: **${MB(stillTotal)} / ${MB(busyTotal)} = ${fmt(stillRatio, 3)}** (goal < ${GOAL_STILL})`,
  `- time to playable, synthetic clip uploaded over HTTP (${Math.ceil(statSync(busySource).size / CHUNK_BYTES)} chunks of 3 MB) to the app with its worker: **${fmt(toPlayable.playable, 1)} s from the last chunk to the lowest rung playing (goal <= ${GOAL_PLAYABLE_S} s)**, using ${fmt(toPlayable.playableCpu, 1)} CPU-s (last chunk's assembly and probe, job pick-up, first pass, storage, polling; the machine meanwhile: ${toPlayable.cores}), ${fmt(toPlayable.whole, 1)} s to the whole ladder (${toPlayable.rungs}); 1-minute load average ${fmt(loadBefore, 1)} before, ${fmt(loadAfter, 1)} after (the machine is shared with other work: figures rise with it)`,
  `- still clip, Glimpse's job: ${fmt(still.cpu, 1)} CPU-s, ${fmt(still.wall, 1)} s wall`,
], figures);
