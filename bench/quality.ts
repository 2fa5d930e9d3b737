/** Quality measures shared by the transcode bench and the ladder sweep. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { MediaJob } from '@glimpse/media';
import { media } from './lib.ts';

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
  return stats.map((file) => {
    const values = readFileSync(file, 'utf8')
      .split('\n')
      .map((l) => Number(/All:([\d.]+)/.exec(l)?.[1]))
      .filter((n) => Number.isFinite(n));
    return values.reduce((a, b) => a + b, 0) / values.length;
  });
}

