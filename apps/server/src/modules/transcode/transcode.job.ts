import { createReadStream, createWriteStream } from 'node:fs';
import { recordEvent } from '../../events/events.ts';
import { announceVideo } from '../videos/announce.ts';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { buffer } from 'node:stream/consumers';
import { once } from 'node:events';
import path from 'node:path';
import { finished, pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import {
  fastRenditionName,
  mergeMasters,
  moveVariant,
  parseProbe,
  planPasses,
  planProgressive,
  planStoryboard,
  planTranscode,
  posterWindow,
  progressFraction,
  progressiveRendition,
  renditionName,
  selectLadder,
  storyboardVtt,
  TRANSCODE_OUTPUTS,
  type Rendition,
  type TranscodeInput,
} from '@glimpse/media';
import type { AppContext } from '../../context.ts';
import { PermanentJobError, type JobHandler } from '../../jobs/worker.ts';
import { MediaStoppedError, MediaToolError, type PreparedEngine } from '../../media/engine.ts';
import { LocalStorage } from '../../storage/local-storage.ts';
import { videoMediaPrefix } from '../../storage/media-keys.ts';
import { VideosRepository } from '../videos/videos.repository.ts';
import { StorageUsageRepository } from '../quota/storage-usage.repository.ts';
import { JobsRepository } from '../../jobs/jobs.repository.ts';
import { PRUNE_QUEUE, pruneAt } from './prune.job.ts';
import type { TranscodePayload } from './queue.ts';
import { probeCrfs } from './crf-probe.ts';

/** Progress is written at most this often (one UPDATE per progress report would be wasteful). */
const PROGRESS_EVERY_MS = 1000;

/** Files the job writes beside the HLS folder, as stored (the engine writes PNG; we keep JPEG). */
const STORED = { poster: 'poster.jpg', sprite: 'storyboard.jpg', vtt: 'storyboard.vtt', progressive: 'progressive.mp4', nextProgressive: 'progressive.next.mp4' } as const;

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name), base) : [path.relative(base, path.join(dir, e.name))])),
  );
  return nested.flat();
}

/** One rendition's init segment and media segments joined: a fragmented mp4 of the whole stream. */
async function joinSegments(dir: string, out: string): Promise<void> {
  const names = (await readdir(dir)).sort();
  const parts = [...names.filter((n) => n.startsWith('init')), ...names.filter((n) => n.endsWith('.m4s'))];
  const target = createWriteStream(out);
  for (const part of parts) {
    for await (const chunk of createReadStream(path.join(dir, part))) if (!target.write(chunk)) await once(target, 'drain');
  }
  target.end();
  await finished(target);
}

const bytesOf = async (files: string[]) => (await Promise.all(files.map((f) => stat(f)))).reduce((n, s) => n + s.size, 0);

const toJpeg = (from: string, to: string, quality: number) => sharp(from).jpeg({ quality, mozjpeg: true }).toFile(to);

/** The first pass's share of the progress bar (it decodes the whole source for one small rung). */
const FIRST_PASS_SHARE = 0.2;

/**
 * Source -> HLS ladder + storyboard (+ poster when the uploader gave no thumbnail) + progressive
 * mp4, in a work folder under DATA_DIR/tmp, then into storage under videos/{id}/. Two passes
 * (ADR 019): the lowest rung with the audio, poster, storyboard and an mp4 first, stored at once
 * so the video plays; then the other rungs, added to the master playlist when stored, and the mp4
 * from the top one (up to 720p) in place of the first. A retried job
 * skips the rungs the database lists as stored. The engine runs in a child process under bounds
 * (no progress, wall time) and stops with the job's signal (the worker stopping, or the video
 * deleted); a file it cannot process fails the video at once with the reason, without retries.
 */
export function transcodeHandler(ctx: AppContext): JobHandler<TranscodePayload> {
  const videos = new VideosRepository(ctx.db);
  const { engine } = ctx.media;
  const bounds = ctx.config.media;
  return {
    async run({ videoId, probe }, job) {
      const video = await videos.findRow(videoId);
      if (!video || !video.sourceKey) {
        job.log.info({ videoId }, 'video gone before transcoding; nothing to do');
        return { skipped: true };
      }
      const work = path.join(ctx.config.dataDir, 'tmp', 'transcode', videoId);
      await rm(work, { recursive: true, force: true });
      await mkdir(work, { recursive: true });
      const { signal } = job;
      const prefix = videoMediaPrefix(videoId);
      const masterKey = `${prefix}/hls/${TRANSCODE_OUTPUTS.master}`;
      // Engines started ahead of their step, each start overlapping the work before it (a third of
      // a second each: ADR 025, sixth round); those left unused end with the job.
      const started: PreparedEngine[] = [];
      const ahead = () => {
        const e = engine.prepare(signal);
        started.push(e);
        return e;
      };
      try {
        let source: string;
        if (ctx.storage instanceof LocalStorage) {
          source = await ctx.storage.engineInput(video.sourceKey);
        } else {
          source = path.join(work, 'source');
          await pipeline(await ctx.storage.getStream(video.sourceKey), createWriteStream(source));
        }
        // The first pass's engine starts while the source is probed (if it must be): the video plays that much sooner.
        const firstRun = ahead();
        const probed = probe ?? parseProbe(JSON.stringify(await engine.probe(source, signal)));
        const ladder = selectLadder(probed.width, probed.height, probed.fps, bounds.ladder);
        const names = ladder.map(renditionName);
        const { first, rest, replacesFirst } = planPasses(ladder, bounds.ladder.firstPassPreset);
        // A fast lowest rung the second pass makes again is stored in a folder of its own: no
        // stored file ever changes (segments are served as immutable), and a player that began on
        // it keeps its files until the prune job removes them (ADR 025, fifth round).
        const firstDir = replacesFirst ? fastRenditionName(first) : names[0]!;
        const progressiveKey = `${prefix}/${STORED.progressive}`;

        /** Runs one pass into `out` on `runner`, its progress mapped onto [from, to] of the video's bar; the seconds written. */
        const encode = async (runner: PreparedEngine, out: string, plan: Omit<TranscodeInput, 'input' | 'outDir' | 'probe' | 'settings'>, from: number, to: number) => {
          await mkdir(out, { recursive: true });
          const { job: media } = planTranscode({ input: source, outDir: out, probe: probed, settings: bounds.ladder, ...plan });
          let lastWrite = 0;
          const { outSeconds } = await runner.run(media, {
            stallSeconds: bounds.stallSeconds,
            timeoutSeconds: 300 + bounds.timeFactor * probed.durationSeconds,
            onProgress: (seconds) => {
              const now = Date.now();
              if (now - lastWrite < PROGRESS_EVERY_MS) return;
              lastWrite = now;
              const progress = from + (to - from) * progressFraction(seconds, probed.durationSeconds);
              void Promise.all([videos.setProcessing(videoId, { progress }), job.heartbeat()]).catch((err) =>
                job.log.error({ err, videoId }, 'progress write failed'),
              );
            },
          });
          // Timestamp gaps were closed up by the engine: the video lasts what was written.
          return outSeconds > 0 ? Math.min(probed.durationSeconds, outSeconds) : probed.durationSeconds;
        };

        /** The progressive mp4 from a pass's top rung (up to 720p) and audio on `runner`, stored at `key`; its bytes. */
        const progressive = async (runner: PreparedEngine, out: string, rungs: Rendition[], key: string): Promise<number> => {
          const top = progressiveRendition(rungs);
          await joinSegments(path.join(out, renditionName(top)), path.join(work, 'video.mp4'));
          if (probed.hasAudio) await joinSegments(path.join(out, TRANSCODE_OUTPUTS.audio), path.join(work, 'audio.mp4'));
          const file = path.join(work, STORED.progressive);
          await runner.run(planProgressive({ video: path.join(work, 'video.mp4'), audio: probed.hasAudio ? path.join(work, 'audio.mp4') : undefined, out: file }), {
            stallSeconds: bounds.stallSeconds,
            timeoutSeconds: 300,
          });
          await ctx.storage.putFile(key, file);
          return bytesOf([file]);
        };

        /** Stores a pass's HLS files (but `skip`) under hls/, each at `as(rel)`, the master playlist last; their bytes. */
        const storeHls = async (out: string, skip: (rel: string) => boolean, master: string, as = (rel: string) => rel): Promise<number> => {
          const files = (await listFiles(out)).filter((rel) => rel !== TRANSCODE_OUTPUTS.master && !skip(rel));
          for (const rel of files) await ctx.storage.putFile(`${prefix}/hls/${as(rel)}`, path.join(out, rel));
          await ctx.storage.putBuffer(masterKey, Buffer.from(master));
          return (await bytesOf(files.map((f) => path.join(out, f)))) + Buffer.byteLength(master);
        };

        let current = video;
        if (!video.renditionsReady.includes(names[0]!)) {
          // Pass 1: the lowest rung, the audio, the storyboard and the poster; the video plays after it.
          const out = path.join(work, 'first');
          const storyboard = planStoryboard(probed.durationSeconds, probed.width, probed.height);
          const poster = video.thumbnailKey ? undefined : posterWindow(probed.durationSeconds);
          const mp4Run = ahead();
          const plan = { rungs: [first], storyboard, posterWithinSeconds: poster, fastScale: replacesFirst };
          const duration = await encode(firstRun, out, plan, 0, rest.length > 0 ? FIRST_PASS_SHARE : 0.95);
          const extras = path.join(work, 'extras');
          /** The poster, the storyboard and the playlists, stored (the playlist last); the files and bytes. */
          const storeFirst = async () => {
            await mkdir(extras);
            await toJpeg(path.join(out, TRANSCODE_OUTPUTS.sprite), path.join(extras, STORED.sprite), 70);
            await rm(path.join(out, TRANSCODE_OUTPUTS.sprite));
            if (poster !== undefined) {
              await toJpeg(path.join(out, TRANSCODE_OUTPUTS.poster), path.join(extras, STORED.poster), 82);
              await rm(path.join(out, TRANSCODE_OUTPUTS.poster));
            }
            await writeFile(path.join(extras, STORED.vtt), storyboardVtt(storyboard, duration, STORED.sprite));
            const extraFiles = await listFiles(extras);
            for (const rel of extraFiles) await ctx.storage.putFile(`${prefix}/${rel}`, path.join(extras, rel));
            const firstMaster = moveVariant(await readFile(path.join(out, TRANSCODE_OUTPUTS.master), 'utf8'), names[0]!, firstDir);
            return { extraFiles, hlsBytes: await storeHls(out, () => false, firstMaster, (rel) => rel.replace(`${names[0]}/`, `${firstDir}/`)) };
          };
          // A spec client plays `videoFile.publicId` once the video says ready: the mp4 exists from
          // this pass's rung on, and the second pass replaces it at the same key (ADR 019, addendum).
          // It is made while the rest is stored (both only read the pass's files).
          const [{ extraFiles, hlsBytes }, progressiveBytes] = await Promise.all([storeFirst(), progressive(mp4Run, out, [first], progressiveKey)]);
          // What the quota counts (the poster is the thumbnail's bytes: replacing it removes it).
          const posterBytes = poster === undefined ? 0 : await bytesOf([path.join(extras, STORED.poster)]);
          const mediaBytes = hlsBytes + progressiveBytes + (await bytesOf(extraFiles.map((f) => path.join(extras, f)))) - posterBytes;
          const updated = await ctx.db.transaction(async (tx) => {
            const row = await new VideosRepository(tx).setProcessing(videoId, {
              status: 'ready',
              progress: rest.length > 0 ? FIRST_PASS_SHARE : 1,
              failureReason: null,
              duration,
              width: probed.width,
              height: probed.height,
              hlsKey: masterKey,
              storyboardKey: `${prefix}/${STORED.vtt}`,
              mediaBytes,
              renditions: names,
              renditionsReady: [names[0]!],
              progressiveKey,
              ...(poster === undefined ? {} : { thumbnailKey: `${prefix}/${STORED.poster}`, thumbnailBytes: posterBytes }),
            });
            if (row) {
              await new StorageUsageRepository(tx).recount(video.ownerId);
              await recordEvent(tx, { kind: 'videoProcessed', actorId: null, videoId, outcome: 'ready' });
              await announceVideo(tx, video);
            }
            return row;
          });
          // Deleted while we worked: what we just stored would be orphaned.
          if (!updated) {
            await ctx.storage.deletePrefix(prefix);
            return { videoId, renditions: 0 };
          }
          job.log.info({ videoId, duration, rendition: names[0] }, 'video playable');
          if (rest.length === 0) return { videoId, renditions: 1 };
          current = (await videos.findRow(videoId)) ?? video;
        } else if (video.status !== 'ready') {
          // A retry after the lowest rung was stored: it plays again at once (announced the first time).
          await videos.setProcessing(videoId, { status: 'ready', failureReason: null, progress: FIRST_PASS_SHARE });
        }

        // Pass 2: every other rung (from one more decode), added to the master playlist once stored;
        // with the lowest again at its own preset, its own playlist replaces the first pass's.
        // A retry redoes this pass whole: the same keys are written again, and counted once.
        if (rest.length === 0 || names.every((n) => current.renditionsReady.includes(n))) return { videoId, renditions: ladder.length };
        const out = path.join(work, 'rest');
        // A CRF one step up for the rungs where this video's probe says it costs little quality.
        const probeStart = performance.now();
        const probedCrfs = await probeCrfs(engine, { input: source, probe: probed, settings: bounds.ladder, rungs: rest, dir: path.join(work, 'crf-probe') }, { signal, stallSeconds: bounds.stallSeconds }).catch(
          (err: unknown) => {
            // A measure, not the video: the ladder's own CRFs serve when it cannot be taken (an
            // engine error, or its bounds: a file with keyframes far apart makes each seek decode long).
            if (!(err instanceof MediaToolError || err instanceof MediaStoppedError) || signal.aborted) throw err;
            job.log.error({ err, videoId }, 'CRF probe failed: the ladder keeps its CRFs');
            return null;
          },
        );
        if (probedCrfs) job.log.info({ videoId, crfs: probedCrfs.choices, seconds: (performance.now() - probeStart) / 1000 }, 'CRF probe');
        const finalMp4Run = ahead();
        await encode(ahead(), out, { rungs: probedCrfs?.rungs ?? rest }, FIRST_PASS_SHARE, 0.98);
        const stored = (await buffer(await ctx.storage.getStream(masterKey))).toString('utf8');
        const own = await readFile(path.join(out, TRANSCODE_OUTPUTS.master), 'utf8');
        const master = replacesFirst ? own : mergeMasters([stored, own]);
        // The audio was stored by the first pass (this pass encodes it again only for the playlist's group and the mp4).
        const hlsBytes = await storeHls(out, (rel) => rel.startsWith(`${TRANSCODE_OUTPUTS.audio}/`), master);
        // The final mp4 takes the first pass's place in one rename: a reader gets one file or the other, never a part.
        const nextKey = `${prefix}/${STORED.nextProgressive}`;
        const progressiveBytes = await progressive(finalMp4Run, out, rest, nextKey);
        const replacedBytes = await ctx.storage.bytesUnder(progressiveKey);
        await ctx.storage.move(nextKey, progressiveKey);
        const updated = await ctx.db.transaction(async (tx) => {
          const row = await new VideosRepository(tx).setProcessing(videoId, {
            progress: 1,
            progressiveKey,
            // The first pass counted its files, the master playlist it wrote and its mp4, now replaced.
            mediaBytes: current.mediaBytes + hlsBytes + progressiveBytes - Buffer.byteLength(stored) - replacedBytes,
            renditionsReady: names,
          });
          if (row) await new StorageUsageRepository(tx).recount(video.ownerId);
          if (row && replacesFirst) await new JobsRepository(tx).enqueue(PRUNE_QUEUE, { videoId, folder: firstDir }, { runAt: pruneAt(probed.durationSeconds) });
          return row;
        });
        if (!updated) await ctx.storage.deletePrefix(prefix);
        job.log.info({ videoId, renditions: names }, 'video ready');
        return { videoId, renditions: ladder.length };
      } catch (err) {
        // Stopped by the worker (shutdown: requeued) or cancelled (the video was deleted): its call.
        if (signal.aborted) throw err;
        if (err instanceof MediaStoppedError) throw new PermanentJobError(`Processing stopped: it ${err.message}`);
        if (err instanceof MediaToolError) throw new PermanentJobError(`This video could not be processed (${err.message})`);
        throw err;
      } finally {
        for (const e of started) e.cancel();
        await rm(work, { recursive: true, force: true });
      }
    },

    async onFailed({ videoId }, reason, log) {
      await ctx.db.transaction(async (tx) => {
        if (await new VideosRepository(tx).setProcessing(videoId, { status: 'failed', failureReason: reason.slice(0, 500) })) {
          await recordEvent(tx, { kind: 'videoProcessed', actorId: null, videoId, outcome: 'failed', reason: reason.slice(0, 500) });
        }
      });
      log.error({ videoId, reason }, 'video failed');
    },
  };
}
