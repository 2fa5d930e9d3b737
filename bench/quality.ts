/** Quality measures shared by the transcode bench and the ladder sweep. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_LADDER, meanSsim, rungX264Params, type MediaJob } from '@glimpse/media';
import { media } from './lib.ts';

/** One x264 encode of a rung as the transcode job makes it: its scale, CRF under its cap, keyframes and B-frames. */
export interface RungEncode {
  file: string;
  width: number;
  height: number;
  preset: string;
  crf: string;
  maxKbps: number;
  /** More x264 parameters, `:`-led (a sweep's trial). */
  x264?: string;
}

/** The source decoded at 25 fps and scaled to a rung's size (`filter` after the scale), no encode: what rungEncodesJob costs before its encodes. */
export function scaleOnlyJob(source: string, size: { width: number; height: number }, filter = ''): MediaJob {
  return {
    inputs: [{ url: source }],
    graph: `[0:v]fps=25,scale=${size.width}:${size.height}${filter},setsar=1,format=yuv420p[v]`,
    outputs: [{ url: '/dev/null', format: 'null', streams: [{ kind: 'video' as const, label: 'v', codec: 'wrapped_avframe' }] }],
  };
}

/**
 * One decode of a 25 fps source, scaled once per size (and `filter` after the scale), into each
 * encode (an mp4 each, video only).
 */
export function rungEncodesJob(source: string, encodes: RungEncode[], filter = ''): MediaJob {
  const sizes = [...new Set(encodes.map((e) => `${e.width}:${e.height}`))];
  const at = (size: string) => encodes.flatMap((e, i) => (`${e.width}:${e.height}` === size ? [i] : []));
  const keyint = 25 * DEFAULT_LADDER.segmentSeconds;
  return {
    inputs: [{ url: source }],
    graph: [
      `[0:v]fps=25,split=${sizes.length}${sizes.map((_, s) => `[s${s}]`).join('')}`,
      ...sizes.map((size, s) => `[s${s}]scale=${size}${filter},setsar=1,format=yuv420p,split=${at(size).length}${at(size).map((i) => `[v${i}]`).join('')}`),
    ].join(';'),
    outputs: encodes.map((e, i) => ({
      url: e.file,
      format: 'mp4',
      streams: [
        {
          kind: 'video' as const,
          label: `v${i}`,
          codec: 'libx264',
          fps: '25',
          maxrate: e.maxKbps * 1000,
          bufsize: e.maxKbps * 2000,
          options: { preset: e.preset, crf: e.crf, profile: 'high', 'x264-params': `${rungX264Params(keyint)}${e.x264 ?? ''}` },
        },
      ],
    })),
  };
}

/** A rendition's init and media segments joined: one fragmented mp4. */
export function join(dir: string, out: string): string {
  const names = readdirSync(dir).sort();
  const parts = [...names.filter((n) => n.startsWith('init')), ...names.filter((n) => n.endsWith('.m4s'))];
  writeFileSync(out, Buffer.concat(parts.map((p) => readFileSync(path.join(dir, p)))));
  return out;
}

/**
 * Mean SSIM (all planes) of each encoded file against the source scaled to its size, in one job
 * (one decode of the source for all of them).
 */
export async function ssims(source: string, encoded: { file: string; width: number; height: number }[]): Promise<number[]> {
  const stats = encoded.map((e) => `${e.file}.ssim.log`);
  const graph = [
    // All start at zero: an encoder's start offset (B-frame delay) must not pair frame n with frame n+2.
    `[0:v]setpts=PTS-STARTPTS,split=${encoded.length}${encoded.map((_, i) => `[src${i}]`).join('')}`,
    ...encoded.map(
      (e, i) =>
        `[src${i}]scale=${e.width}:${e.height}:flags=bicubic,format=yuv420p[ref${i}];[${i + 1}:v]setpts=PTS-STARTPTS,format=yuv420p[enc${i}];[enc${i}][ref${i}]ssim=stats_file=${stats[i]}[out${i}]`,
    ),
  ].join(';');
  const job: MediaJob = {
    inputs: [{ url: source }, ...encoded.map((e) => ({ url: e.file }))],
    graph,
    outputs: encoded.map((_, i) => ({ url: '/dev/null', format: 'null', streams: [{ kind: 'video' as const, label: `out${i}`, codec: 'wrapped_avframe' }] })),
  };
  await media.engine.run(job);
  return stats.map((file) => meanSsim(readFileSync(file, 'utf8')));
}

