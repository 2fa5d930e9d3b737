import type { MediaJob, OutputStream } from './job.ts';

/**
 * Generated media (demo content, tests, benchmarks): a lavfi test picture and a tone, encoded as
 * a phone, a camera or a browser would. Nothing is checked in; any engine makes it in seconds.
 */
export interface ClipSpec {
  out: string;
  seconds: number;
  width: number;
  height: number;
  fps?: number;
  /** lavfi source of the picture: testsrc2 (busy, moving), smptebars (still), ... */
  pattern?: string;
  /** Filters appended to the picture (hue, select for variable frame rate, setpts for gaps, ...). */
  videoFilter?: string;
  video?: { codec: string; pixFmt?: string; bitrate?: number; options?: Record<string, string> } | false;
  audio?: { codec: string; channels?: 1 | 2 | 6; frequency?: number; bitrate?: number } | false;
  /** Muxer: mp4, mov, 3gp, webm, matroska, avi, hls, ... */
  container: string;
  muxerOptions?: Record<string, string>;
  /** Display matrix rotation (ffprobe's convention: -90 is a phone held upright). */
  displayRotation?: number;
  /** Tag the picture as HDR10 (BT.2020, PQ); pair with a 10-bit HEVC encode. */
  hdr?: boolean;
}

/**
 * lavfi sources that take no `duration` option: a trim inside the source's own graph ends them
 * (a trim in the job's graph would leave the input endless, and the engine reading it forever).
 */
const UNTIMED_SOURCES = new Set(['mandelbrot', 'life', 'cellauto', 'sierpinski']);

/**
 * The lavfi url of a picture source. `pattern` is a source name, optionally with its own
 * options (`gradients=c0=navy:c1=teal`, `cellauto=rule=110`); size, rate and length are added.
 */
function sourceUrl(pattern: string, width: number, height: number, fps: number, seconds: number): string {
  const [name = pattern, own] = pattern.split(/=(.*)/s);
  const untimed = UNTIMED_SOURCES.has(name);
  const options = [own, `size=${width}x${height}`, `rate=${fps}`, untimed ? undefined : `duration=${seconds}`].filter(Boolean).join(':');
  return `${name}=${options}${untimed ? `,trim=duration=${seconds}` : ''}`;
}

const SAMPLE_FORMAT: Record<string, string> = { libopus: 'flt', aac: 'fltp', libvorbis: 'fltp', libmp3lame: 'fltp', ac3: 'fltp' };
const LAYOUT = { 1: 'mono', 2: 'stereo', 6: '5.1' } as const;

export function clipJob(c: ClipSpec): MediaJob {
  const video = c.video === undefined ? { codec: 'libx264', options: { preset: 'ultrafast' } } : c.video;
  const audio = c.audio === undefined ? { codec: 'aac' } : c.audio;
  const inputs = [
    ...(video ? [{ url: sourceUrl(c.pattern ?? 'testsrc2', c.width, c.height, c.fps ?? 25, c.seconds), format: 'lavfi' }] : []),
    ...(audio ? [{ url: `sine=frequency=${audio.frequency ?? 440}:sample_rate=48000:duration=${c.seconds}`, format: 'lavfi' }] : []),
  ];
  const graph: string[] = [];
  const streams: OutputStream[] = [];
  if (video) {
    const hdr = c.hdr ? ',setparams=color_primaries=bt2020:color_trc=smpte2084:colorspace=bt2020nc' : '';
    graph.push(`[0:v]${c.videoFilter ? `${c.videoFilter},` : ''}format=${video.pixFmt ?? 'yuv420p'}${hdr}[v]`);
    streams.push({
      kind: 'video',
      label: 'v',
      codec: video.codec,
      ...(video.bitrate ? { bitrate: video.bitrate } : {}),
      options: video.options ?? {},
      ...(c.displayRotation !== undefined ? { displayRotation: c.displayRotation } : {}),
    });
  }
  if (audio) {
    const layout = LAYOUT[audio.channels ?? 2];
    graph.push(`[${video ? 1 : 0}:a]aformat=sample_fmts=${SAMPLE_FORMAT[audio.codec] ?? 'fltp'}:channel_layouts=${layout}[a]`);
    streams.push({ kind: 'audio', label: 'a', codec: audio.codec, bitrate: audio.bitrate ?? 64_000 });
  }
  return { inputs, graph: graph.join(';'), outputs: [{ url: c.out, format: c.container, ...(c.muxerOptions ? { options: c.muxerOptions } : {}), streams }] };
}

/** A single picture (png): what an upload of a photo looks like. */
export function pictureJob(out: string, width = 320, height = 240, pattern = 'testsrc2'): MediaJob {
  return {
    inputs: [{ url: sourceUrl(pattern, width, height, 1, 1), format: 'lavfi' }],
    graph: '[0:v]format=rgb24[v]',
    outputs: [{ url: out, format: 'image2', frames: 1, streams: [{ kind: 'video', label: 'v', codec: 'png' }] }],
  };
}
