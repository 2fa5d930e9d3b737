import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { finished, pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import {
  parseProbe,
  planProgressive,
  planStoryboard,
  planTranscode,
  posterWindow,
  progressFraction,
  progressiveRendition,
  renditionName,
  storyboardVtt,
  TRANSCODE_OUTPUTS,
} from '@glimpse/media';
import type { AppContext } from '../../context.ts';
import { PermanentJobError, type JobHandler } from '../../jobs/worker.ts';
import { MediaStoppedError, MediaToolError } from '../../media/engine.ts';
import { LocalStorage } from '../../storage/local-storage.ts';
import { videoMediaPrefix } from '../../storage/media-keys.ts';
import { VideosRepository } from '../videos/videos.repository.ts';

export interface TranscodePayload {
  videoId: string;
}

/** Progress is written at most this often (one UPDATE per progress report would be wasteful). */
const PROGRESS_EVERY_MS = 1000;

/** Files the job writes beside the HLS folder, as stored (the engine writes PNG; we keep JPEG). */
const STORED = { poster: 'poster.jpg', sprite: 'storyboard.jpg', vtt: 'storyboard.vtt', progressive: 'progressive.mp4' } as const;

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

const toJpeg = (from: string, to: string, quality: number) => sharp(from).jpeg({ quality, mozjpeg: true }).toFile(to);

/**
 * Source -> HLS ladder + storyboard (+ poster when the uploader gave no thumbnail) + progressive
 * mp4, in a work folder under DATA_DIR/tmp, then into storage under videos/{id}/. The engine runs
 * in a child process under bounds (no progress, wall time) and stops with the job's signal (the
 * worker stopping, or the video deleted); a file it cannot process fails the video at once with
 * the reason, without retries.
 */
export function transcodeHandler(ctx: AppContext): JobHandler<TranscodePayload> {
  const videos = new VideosRepository(ctx.db);
  const { engine } = ctx.media;
  const bounds = ctx.config.media;
  return {
    async run({ videoId }, job) {
      const video = await videos.findRow(videoId);
      if (!video || !video.sourceKey) {
        job.log.info({ videoId }, 'video gone before transcoding; nothing to do');
        return { skipped: true };
      }
      const work = path.join(ctx.config.dataDir, 'tmp', 'transcode', videoId);
      await rm(work, { recursive: true, force: true });
      const out = path.join(work, 'out');
      await mkdir(out, { recursive: true });
      const { signal } = job;
      try {
        let source: string;
        if (ctx.storage instanceof LocalStorage) {
          source = ctx.storage.pathOf(video.sourceKey);
        } else {
          source = path.join(work, 'source');
          await pipeline(await ctx.storage.getStream(video.sourceKey), createWriteStream(source));
        }
        const probed = parseProbe(JSON.stringify(await engine.probe(source)));
        const storyboard = planStoryboard(probed.durationSeconds, probed.width, probed.height);
        const { job: media, ladder } = planTranscode({
          input: source,
          outDir: out,
          probe: probed,
          storyboard,
          posterWithinSeconds: video.thumbnailKey ? undefined : posterWindow(probed.durationSeconds),
          settings: bounds.ladder,
        });
        let lastWrite = 0;
        const { outSeconds } = await engine.run(media, {
          signal,
          stallSeconds: bounds.stallSeconds,
          timeoutSeconds: 300 + bounds.timeFactor * probed.durationSeconds,
          onProgress: (seconds) => {
            const now = Date.now();
            if (now - lastWrite < PROGRESS_EVERY_MS) return;
            lastWrite = now;
            const progress = progressFraction(seconds, probed.durationSeconds);
            void Promise.all([videos.setProcessing(videoId, { progress }), job.heartbeat()]).catch((err) =>
              job.log.error({ err, videoId }, 'progress write failed'),
            );
          },
        });
        // Timestamp gaps were closed up by the engine: the video lasts what was written.
        const duration = outSeconds > 0 ? Math.min(probed.durationSeconds, outSeconds) : probed.durationSeconds;

        const top = progressiveRendition(ladder);
        await joinSegments(path.join(out, renditionName(top)), path.join(work, 'video.mp4'));
        if (probed.hasAudio) await joinSegments(path.join(out, TRANSCODE_OUTPUTS.audio), path.join(work, 'audio.mp4'));
        await engine.run(
          planProgressive({ video: path.join(work, 'video.mp4'), audio: probed.hasAudio ? path.join(work, 'audio.mp4') : undefined, out: path.join(work, STORED.progressive) }),
          { signal, stallSeconds: bounds.stallSeconds, timeoutSeconds: 300 },
        );

        const prefix = videoMediaPrefix(videoId);
        const extras = path.join(work, 'extras');
        await mkdir(extras);
        await toJpeg(path.join(out, TRANSCODE_OUTPUTS.sprite), path.join(extras, STORED.sprite), 70);
        await rm(path.join(out, TRANSCODE_OUTPUTS.sprite));
        if (!video.thumbnailKey) {
          await toJpeg(path.join(out, TRANSCODE_OUTPUTS.poster), path.join(extras, STORED.poster), 82);
          await rm(path.join(out, TRANSCODE_OUTPUTS.poster));
        }
        await writeFile(path.join(extras, STORED.vtt), storyboardVtt(storyboard, duration, STORED.sprite));
        await ctx.storage.putFile(`${prefix}/${STORED.progressive}`, path.join(work, STORED.progressive));
        for (const rel of await listFiles(extras)) await ctx.storage.putFile(`${prefix}/${rel}`, path.join(extras, rel));
        for (const rel of await listFiles(out)) await ctx.storage.putFile(`${prefix}/hls/${rel}`, path.join(out, rel));

        const updated = await videos.setProcessing(videoId, {
          status: 'ready',
          progress: 1,
          failureReason: null,
          duration,
          width: probed.width,
          height: probed.height,
          hlsKey: `${prefix}/hls/${TRANSCODE_OUTPUTS.master}`,
          storyboardKey: `${prefix}/${STORED.vtt}`,
          progressiveKey: `${prefix}/${STORED.progressive}`,
          ...(video.thumbnailKey ? {} : { thumbnailKey: `${prefix}/${STORED.poster}` }),
        });
        // Deleted while we worked: what we just stored would be orphaned.
        if (!updated) await ctx.storage.deletePrefix(prefix);
        job.log.info({ videoId, duration, renditions: ladder.map(renditionName) }, 'video ready');
        return { videoId, renditions: ladder.length };
      } catch (err) {
        // Stopped by the worker (shutdown: requeued) or cancelled (the video was deleted): its call.
        if (signal.aborted) throw err;
        if (err instanceof MediaStoppedError) throw new PermanentJobError(`Processing stopped: it ${err.message}`);
        if (err instanceof MediaToolError) throw new PermanentJobError(`This video could not be processed (${err.message})`);
        throw err;
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },

    async onFailed({ videoId }, reason, log) {
      await videos.setProcessing(videoId, { status: 'failed', failureReason: reason.slice(0, 500) });
      log.error({ videoId, reason }, 'video failed');
    },
  };
}
