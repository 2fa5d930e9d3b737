/**
 * A media job: the part of an ffmpeg command line Glimpse uses (inputs, one filter graph, outputs
 * fed by the graph's labelled outputs or copied from an input), as data. Either engine runs it:
 * the bundled one (FFmpeg libraries through node-av, in a child process) or a system ffmpeg
 * binary, for which `toFfmpegArgs` writes the command line.
 */
export interface MediaInput {
  url: string;
  /** Demuxer name; 'lavfi' makes the url a filter-graph source (test media). */
  format?: string;
  /**
   * Read from this second on (frames before it are decoded and dropped, as ffmpeg's `-ss` before
   * `-i`): the input's time starts at 0 there. For a part of a long file, without decoding the rest.
   */
  seekSeconds?: number;
  /** Read this many seconds (from `seekSeconds`), then stop reading the input. */
  durationSeconds?: number;
  /** Decoder threads; FFmpeg's choice when omitted. One each where many small inputs share a job. */
  threads?: number;
}

export interface EncodedStream {
  kind: 'video' | 'audio';
  /** The filter graph output (without brackets) that feeds this stream. */
  label: string;
  codec: string;
  /** The constant frame rate the graph delivers ("30000/1001"): encoders record it (levels, timing). */
  fps?: string;
  /** Bits per second. */
  bitrate?: number;
  maxrate?: number;
  bufsize?: number;
  /** Encoder options by their ffmpeg names (preset, crf, x264-params, ...). */
  options?: Record<string, string>;
  /** Display matrix rotation written to the container, in ffprobe's convention (test media only). */
  displayRotation?: number;
}

/** A stream copied without re-encoding: the first video or audio stream of an input. */
export interface CopiedStream {
  kind: 'video' | 'audio';
  copyFrom: number;
}

export type OutputStream = EncodedStream | CopiedStream;

export const isCopied = (s: OutputStream): s is CopiedStream => 'copyFrom' in s;

export interface MediaOutput {
  url: string;
  /** Muxer name (mp4, hls, image2, matroska, ...). */
  format: string;
  /** Muxer options by their ffmpeg names. */
  options?: Record<string, string>;
  streams: OutputStream[];
  /** Stop after this many video frames (single images). */
  frames?: number;
}

export interface MediaJob {
  inputs: MediaInput[];
  /** One filtergraph; its inputs are written `[N:v]` / `[N:a]` (first video/audio of input N). */
  graph?: string;
  outputs: MediaOutput[];
}

/** Graph inputs named `[N:v]` / `[N:a]`, in order of appearance, without duplicates. */
export function graphInputs(graph: string): { label: string; input: number; kind: 'video' | 'audio' }[] {
  const seen = new Set<string>();
  const out: { label: string; input: number; kind: 'video' | 'audio' }[] = [];
  for (const m of graph.matchAll(/\[(\d+):([va])\]/g)) {
    const label = `${m[1]}:${m[2]}`;
    if (seen.has(label)) continue;
    seen.add(label);
    out.push({ label, input: Number(m[1]), kind: m[2] === 'v' ? 'video' : 'audio' });
  }
  return out;
}

/** The command line for a system ffmpeg; progress goes to stdout as `-progress` blocks. */
export function toFfmpegArgs(job: MediaJob): string[] {
  // -noautorotate: plans rotate explicitly (the bundled engine never rotates on its own).
  const args = ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', '-nostats', '-progress', 'pipe:1'];
  for (const input of job.inputs) {
    if (input.format === 'lavfi') args.push('-f', 'lavfi');
    else args.push('-noautorotate');
    if (input.seekSeconds !== undefined) args.push('-ss', String(input.seekSeconds));
    if (input.durationSeconds !== undefined) args.push('-t', String(input.durationSeconds));
    if (input.threads !== undefined) args.push('-threads', String(input.threads));
    args.push('-i', input.url);
  }
  if (job.graph) args.push('-filter_complex', job.graph);
  for (const out of job.outputs) {
    out.streams.forEach((s, i) => {
      if (isCopied(s)) {
        args.push('-map', `${s.copyFrom}:${s.kind === 'video' ? 'v' : 'a'}:0`, `-c:${i}`, 'copy');
        return;
      }
      if (s.displayRotation !== undefined) throw new Error('display rotation needs the bundled media engine');
      args.push('-map', `[${s.label}]`, `-c:${i}`, s.codec);
      if (s.bitrate) args.push(`-b:${i}`, String(s.bitrate));
      if (s.maxrate) args.push(`-maxrate:${i}`, String(s.maxrate));
      if (s.bufsize) args.push(`-bufsize:${i}`, String(s.bufsize));
      for (const [k, v] of Object.entries(s.options ?? {})) args.push(`-${k}:${i}`, v);
    });
    if (out.frames !== undefined) args.push('-frames:v', String(out.frames));
    args.push('-f', out.format);
    for (const [k, v] of Object.entries(out.options ?? {})) args.push(`-${k}`, v);
    args.push(out.url);
  }
  return args;
}
