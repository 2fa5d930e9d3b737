/**
 * PeerTube's VOD ladder (v6/v7 defaults: HLS on, web videos off, threads 1, concurrency 1),
 * rebuilt from the command lines its code makes and run with the bundled engine, so the transcode
 * bench compares Glimpse's job with it on the same source and the same FFmpeg. Written from
 * reading Chocobozzz/PeerTube; the files each step follows:
 * - server/core/lib/transcoding/shared/job-builders/abstract-job-builder.ts: an "optimize" job
 *   makes the max-resolution file from the upload; then one HLS job per resolution, the max one
 *   copying that file's codecs, the lower ones transcoded from it (not from the upload), one
 *   after another (transcoding.concurrency 1, config/production.yaml.example).
 * - packages/ffmpeg/src/ffmpeg-vod.ts: buildWebVideoCommand (scale `w=-2:h=<res>`, presetVOD),
 *   buildHLSVODCommand / addCommonHLSVODCommandOptions (`-hls_time 4 -hls_list_size 0
 *   -hls_playlist_type vod -hls_segment_type fmp4 -f hls -hls_flags single_file`), presetCopy.
 * - packages/ffmpeg/src/shared/presets.ts (presetVOD: mp4, faststart, the encoders' options),
 *   shared/encoder-options.ts (`-pix_fmt yuv420p`, `-g <fps*2>`).
 * - packages/ffmpeg/src/ffmpeg-default-transcoding-profile.ts: x264 `-preset veryfast`, `-maxrate`
 *   the target bitrate, `-bufsize` twice it, `-b_strategy 1 -bf 16`, `-r <fps>`, no CRF (x264's
 *   default, 23); AAC copied when the input's is AAC within the bitrate limit (canDoQuickAudioTranscode).
 * - packages/core-utils/src/videos/bitrate.ts: the target is the average bits per pixel of the
 *   resolution, capped at the input's bitrate + 30 %, never under the minimum (getTargetBitrate).
 * - packages/ffmpeg/src/ffmpeg-command-wrapper.ts: `-threads <transcoding.threads>` (1 by default).
 * The video becomes playable after the optimize job and its HLS copy (the max resolution first).
 */
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { MediaJob, OutputStream } from '@glimpse/media';
import { cpuSeconds, loadNow, media } from './lib.ts';

/** PeerTube's resolutions on by default, and its bits per pixel (bitrate.ts). */
export const RESOLUTIONS = [240, 360, 480, 720, 1080];
const AVERAGE_BPP: Record<number, number> = { 144: 0.19, 240: 0.17, 360: 0.15, 480: 0.12, 720: 0.11, 1080: 0.1, 1440: 0.09, 2160: 0.08 };
const MIN_BPP = 0.02;
/** transcoding.threads in PeerTube's example configuration; PEERTUBE_THREADS to replay another. */
const THREADS = process.env.PEERTUBE_THREADS ?? '1';

/** calculateBitrate: the table's value for the highest listed resolution not above `resolution`. */
function bitrate(bpp: (r: number) => number, resolution: number, ratio: number, fps: number): number {
  const listed = Object.keys(AVERAGE_BPP).map(Number).sort((a, b) => b - a).find((r) => r <= resolution) ?? 144;
  return Math.floor(resolution * resolution * ratio * fps * bpp(listed));
}

/** getTargetBitrate: average bitrate, capped at the input's + 30 %, at least the minimum. */
export function peertubeTargetBitrate(resolution: number, ratio: number, fps: number, inputBitrate: number): number {
  const average = bitrate((r) => AVERAGE_BPP[r]!, resolution, ratio, fps);
  const capped = inputBitrate ? Math.min(average, Math.floor(inputBitrate * 1.3)) : average;
  return Math.max(bitrate(() => MIN_BPP, resolution, ratio, fps), capped);
}

export interface PeerTubeRendition {
  resolution: number;
  /** The HLS file (video and its copy of the audio). */
  file: string;
  bytes: number;
  maxrate: number;
}

export interface PeerTubeLadder {
  renditions: PeerTubeRendition[];
  /** Bytes of the audio every rendition carries (copied from the upload). */
  audioBytes: number;
  cpu: number;
  wall: number;
  /** Wall seconds until the max resolution's HLS playlist exists (PeerTube publishes then). */
  playable: number;
  steps: string[];
}

const hlsOptions = (file: string): Record<string, string> => ({
  hls_time: '4',
  hls_list_size: '0',
  hls_playlist_type: 'vod',
  hls_segment_filename: file,
  hls_segment_type: 'fmp4',
  hls_flags: 'single_file',
});

/** presetVOD's video stream: x264 with the profile's options and `-g`, `-threads`. */
export function x264(maxrate: number, fps: number, label = 'v'): OutputStream {
  return {
    kind: 'video',
    label,
    codec: 'libx264',
    fps: String(fps),
    maxrate,
    bufsize: maxrate * 2,
    // crf 23: what x264 does with no rate option. ffmpeg's libx264 wrapper defaults `b` to 0 (CRF,
    // x264's default 23, under the maxrate); node-av sets 1 Mbit/s when given no bitrate, which
    // would make it an average-bitrate encode.
    options: { preset: 'veryfast', crf: '23', b_strategy: '1', bf: '16', g: String(fps * 2), threads: THREADS },
  };
}

/** `-vf scale=w=-2:h=<res>`, `-r <fps>`, `-pix_fmt yuv420p`. */
const scaled = (resolution: number, fps: number) => `[0:v]scale=w=-2:h=${resolution},fps=${fps},format=yuv420p[v]`;

const bitsPerSecond = (file: string, seconds: number) => (statSync(file).size * 8) / seconds;

/**
 * Runs PeerTube's ladder on `source` (landscape, with AAC audio PeerTube would copy) into `dir`,
 * one engine process per ffmpeg command, in PeerTube's order.
 */
export async function peertubeLadder(source: string, dir: string, s: { width: number; height: number; fps: number; seconds: number }): Promise<PeerTubeLadder> {
  mkdirSync(dir, { recursive: true });
  const ratio = s.width / s.height;
  const top = Math.max(...RESOLUTIONS.filter((r) => r <= s.height));
  const steps: string[] = [];
  const c0 = cpuSeconds();
  const t0 = performance.now();
  const step = async (what: string, job: MediaJob) => {
    const c = cpuSeconds();
    const t = performance.now();
    await media.engine.run(job);
    steps.push(`${what}: ${((performance.now() - t) / 1000).toFixed(1)} s, ${(cpuSeconds() - c).toFixed(1)} CPU-s, load ${loadNow()}`);
    console.log(`peertube ${path.basename(dir)} ${steps.at(-1)}`);
  };

  // Optimize: the upload to the max resolution, an mp4 with the audio copied.
  const optimized = path.join(dir, `optimized-${top}.mp4`);
  const topRate = peertubeTargetBitrate(top, ratio, s.fps, bitsPerSecond(source, s.seconds));
  await step(`optimize ${top}p`, {
    inputs: [{ url: source }],
    graph: scaled(top, s.fps),
    outputs: [{ url: optimized, format: 'mp4', options: { movflags: 'faststart' }, streams: [x264(topRate, s.fps), { kind: 'audio', copyFrom: 0 }] }],
  });
  // The max resolution's HLS copies the optimized file's codecs.
  const renditions: PeerTubeRendition[] = [];
  const hls = async (resolution: number, job: (file: string) => MediaJob, maxrate: number) => {
    const file = path.join(dir, `${resolution}-fragmented.mp4`);
    await step(`hls ${resolution}p`, job(file));
    renditions.push({ resolution, file, bytes: statSync(file).size, maxrate });
  };
  await hls(
    top,
    (file) => ({
      inputs: [{ url: optimized }],
      outputs: [{ url: path.join(dir, `${top}.m3u8`), format: 'hls', options: hlsOptions(file), streams: [{ kind: 'video', copyFrom: 0 }, { kind: 'audio', copyFrom: 0 }] }],
    }),
    topRate,
  );
  const playable = (performance.now() - t0) / 1000;
  // Lower resolutions, from the optimized file, one after another (largest first, as queued).
  const inputRate = bitsPerSecond(optimized, s.seconds);
  for (const resolution of RESOLUTIONS.filter((r) => r < top).reverse()) {
    const maxrate = peertubeTargetBitrate(resolution, ratio, s.fps, inputRate);
    await hls(
      resolution,
      (file) => ({
        inputs: [{ url: optimized }],
        graph: scaled(resolution, s.fps),
        outputs: [{ url: path.join(dir, `${resolution}.m3u8`), format: 'hls', options: hlsOptions(file), streams: [x264(maxrate, s.fps), { kind: 'audio', copyFrom: 0 }] }],
      }),
      maxrate,
    );
  }
  const cpu = cpuSeconds() - c0;
  const wall = (performance.now() - t0) / 1000;
  // The audio each rendition carries: the upload's track alone, copied into an mp4 (not timed).
  const audio = path.join(dir, 'audio-only.mp4');
  await media.engine.run({ inputs: [{ url: source }], outputs: [{ url: audio, format: 'mp4', streams: [{ kind: 'audio', copyFrom: 0 }] }] });
  renditions.sort((a, b) => a.resolution - b.resolution);
  return { renditions, audioBytes: statSync(audio).size, cpu, wall, playable, steps };
}
