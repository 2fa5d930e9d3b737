import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  buildTranscodeArgs,
  planStoryboard,
  posterTime,
  progressFraction,
  selectLadder,
  storyboardVtt,
  TRANSCODE_OUTPUTS,
} from '@glimpse/media';
import type { AppContext } from '../../context.ts';
import type { JobHandler } from '../../jobs/worker.ts';
import { locateBinaries, probe, runFfmpeg } from '../../media/ffmpeg.ts';
import { LocalStorage } from '../../storage/local-storage.ts';
import { VideosRepository } from '../videos/videos.repository.ts';

export interface TranscodePayload {
  videoId: string;
}

/** Progress is written at most this often (one UPDATE per ffmpeg progress block would be wasteful). */
const PROGRESS_EVERY_MS = 1000;

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name), base) : [path.relative(base, path.join(dir, e.name))])),
  );
  return nested.flat();
}

/**
 * Source -> HLS ladder + storyboard (+ poster when the uploader gave no thumbnail), in a work
 * folder under DATA_DIR/tmp, then into storage under videos/{id}/. The row turns ready at the end.
 */
export function transcodeHandler(ctx: AppContext, opts: { preset?: string } = {}): JobHandler<TranscodePayload> {
  const videos = new VideosRepository(ctx.db);
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
      try {
        let source: string;
        if (ctx.storage instanceof LocalStorage) {
          source = ctx.storage.pathOf(video.sourceKey);
        } else {
          source = path.join(work, 'source.mp4');
          await pipeline(await ctx.storage.getStream(video.sourceKey), createWriteStream(source));
        }
        const bins = locateBinaries(ctx.config);
        const probed = await probe(bins, source);
        const storyboard = planStoryboard(probed.durationSeconds, probed.width, probed.height);
        const args = buildTranscodeArgs({
          input: source,
          outDir: out,
          ladder: selectLadder(probed.width, probed.height),
          hasAudio: probed.hasAudio,
          storyboard,
          posterAtSeconds: video.thumbnailKey ? undefined : posterTime(probed.durationSeconds),
          preset: opts.preset,
        });
        let lastWrite = 0;
        await runFfmpeg(bins, args, (update) => {
          const now = Date.now();
          if (now - lastWrite < PROGRESS_EVERY_MS) return;
          lastWrite = now;
          const progress = progressFraction(update, probed.durationSeconds);
          void Promise.all([videos.setProcessing(videoId, { progress }), job.heartbeat()]).catch((err) =>
            job.log.error({ err, videoId }, 'progress write failed'),
          );
        });
        await writeFile(path.join(out, 'storyboard.vtt'), storyboardVtt(storyboard, probed.durationSeconds, TRANSCODE_OUTPUTS.sprite));

        const prefix = `videos/${videoId}`;
        for (const rel of await listFiles(out)) {
          const key = rel === 'storyboard.vtt' || rel === TRANSCODE_OUTPUTS.sprite || rel === TRANSCODE_OUTPUTS.poster ? `${prefix}/${rel}` : `${prefix}/hls/${rel}`;
          await ctx.storage.putFile(key, path.join(out, rel));
        }
        const updated = await videos.setProcessing(videoId, {
          status: 'ready',
          progress: 1,
          failureReason: null,
          duration: probed.durationSeconds,
          width: probed.width,
          height: probed.height,
          hlsKey: `${prefix}/hls/${TRANSCODE_OUTPUTS.master}`,
          storyboardKey: `${prefix}/storyboard.vtt`,
          ...(video.thumbnailKey ? {} : { thumbnailKey: `${prefix}/${TRANSCODE_OUTPUTS.poster}` }),
        });
        // Deleted while we worked: what we just stored would be orphaned.
        if (!updated) await ctx.storage.deletePrefix(prefix);
        job.log.info({ videoId, duration: probed.durationSeconds }, 'video ready');
        return { videoId, renditions: args.filter((a) => a.startsWith('-b:v:')).length };
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
