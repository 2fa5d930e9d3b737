/**
 * The bundled media engine's child process: FFmpeg's libraries through node-av, so a crash in
 * native code ends this process, never the API or the worker. `node av-runner.ts <op> <json>`
 * (or `-` for the JSON on stdin, which a probe started before its file is written waits for):
 * - probe {file}: prints ffprobe-shaped JSON (see @glimpse/media parseProbe);
 * - run {job}: runs a MediaJob, printing `{"progress":seconds}` lines, then `{"outSeconds":n}`;
 * - check: prints the engine's version and which of the codecs, muxers and filters it needs exist.
 * Errors go to stderr with exit code 1.
 */
import { Decoder, Demuxer, Encoder, FilterComplexAPI, Muxer } from 'node-av/api';
import {
  AVERROR_EOF,
  AVSEEK_FLAG_BACKWARD,
  AV_DISPOSITION_ATTACHED_PIC,
  AV_LOG_ERROR,
  AV_PKT_DATA_DISPLAYMATRIX,
  AVMEDIA_TYPE_AUDIO,
  AVMEDIA_TYPE_VIDEO,
  EOF,
  type AVMediaType,
} from 'node-av/constants';
import {
  avGetCodecName,
  avGetPixFmtName,
  Codec,
  FFmpegError,
  Filter,
  getFFmpegInfo,
  InputFormat,
  Log,
  OutputFormat,
  Rational,
  type Frame,
  type Packet,
  type Stream,
} from 'node-av/lib';
import { displayMatrix, displayMatrixRotation, graphInputs, isCopied, type EncodedStream, type MediaJob, type RawProbe, type RawStream } from '@glimpse/media';
import { ENGINE_NEEDS } from './engine-needs.ts';

Log.setLevel(AV_LOG_ERROR);

const parentPid = process.ppid;
const out = (obj: unknown) => process.stdout.write(`${JSON.stringify(obj)}\n`);

/** A jump forward larger than this between two frames of a stream is a timestamp gap, closed up. */
const MAX_GAP_SECONDS = 5;

const TRANSFERS: Record<number, string> = { 1: 'bt709', 14: 'bt2020-10', 16: 'smpte2084', 18: 'arib-std-b67' };

const ratio = (r: { num: number; den: number }) => `${r.num}/${r.den}`;

function describeStream(s: Stream): RawStream {
  const par = s.codecpar;
  const kind = par.codecType === AVMEDIA_TYPE_VIDEO ? 'video' : par.codecType === AVMEDIA_TYPE_AUDIO ? 'audio' : 'other';
  const matrix = par.getCodedSideData(AV_PKT_DATA_DISPLAYMATRIX);
  const seconds = s.duration > 0n ? (Number(s.duration) * s.timeBase.num) / s.timeBase.den : undefined;
  return {
    index: s.index,
    codec_type: kind,
    codec_name: avGetCodecName(par.codecId) ?? 'unknown',
    ...(kind === 'video'
      ? {
          width: par.width,
          height: par.height,
          pix_fmt: avGetPixFmtName(par.format as never) ?? 'unknown',
          color_transfer: TRANSFERS[par.colorTrc as number] ?? 'unknown',
          avg_frame_rate: ratio(s.avgFrameRate),
          r_frame_rate: ratio(s.rFrameRate),
          ...(s.nbFrames > 0n ? { nb_frames: String(s.nbFrames) } : {}),
          ...(matrix && matrix.length >= 36 ? { side_data_list: [{ side_data_type: 'Display Matrix', rotation: displayMatrixRotation(matrix) }] } : {}),
          disposition: { attached_pic: (s.disposition & AV_DISPOSITION_ATTACHED_PIC) !== 0 ? 1 : 0 },
        }
      : {}),
    ...(kind === 'audio' ? { channels: par.channels } : {}),
    ...(seconds !== undefined ? { duration: String(seconds) } : {}),
  };
}

async function probe(file: string): Promise<RawProbe> {
  await using input = await Demuxer.open(file);
  return {
    streams: input.streams.map(describeStream),
    format: { format_name: input.formatName, ...(input.duration > 0 ? { duration: String(input.duration) } : {}) },
  };
}

function check() {
  const missing = [
    ...ENGINE_NEEDS.decoders.filter((n) => !Codec.findDecoderByName(n as never)).map((n) => `decoder ${n}`),
    ...ENGINE_NEEDS.encoders.filter((n) => !Codec.findEncoderByName(n as never)).map((n) => `encoder ${n}`),
    ...ENGINE_NEEDS.muxers.filter((n) => !OutputFormat.guessFormat(n, null, null)).map((n) => `muxer ${n}`),
    ...ENGINE_NEEDS.demuxers.filter((n) => !InputFormat.findInputFormat(n)).map((n) => `demuxer ${n}`),
    ...ENGINE_NEEDS.filters.filter((n) => !Filter.getByName(n)).map((n) => `filter ${n}`),
  ];
  return { version: getFFmpegInfo().version, missing };
}

interface Feeder {
  decoder: Decoder;
  label: string;
  /** The input's window (MediaInput seekSeconds, durationSeconds): frames before it are dropped, its start is time 0. */
  from?: number;
  until: number;
  /** Seconds of the last frame sent, after closing up gaps. */
  last?: number;
  shift: number;
  closed?: boolean;
}

interface Sink {
  stream: EncodedStream;
  encoder: Encoder;
  muxer: Muxer;
  index: number;
  output: OutputState;
  done: boolean;
}

interface OutputState {
  frames?: number;
  written: number;
}

const parseRate = (fps: string) => {
  const [num, den = '1'] = fps.split('/');
  return new Rational(Number(num), Number(den));
};

async function run(job: MediaJob): Promise<{ outSeconds: number }> {
  const demuxers = await Promise.all(job.inputs.map((i) => Demuxer.open(i.url, i.format ? { format: i.format } : {})));
  try {
    // A window of an input: read from the keyframe before its start (its frames up to the start are dropped).
    job.inputs.forEach((i, n) => {
      if (i.seekSeconds) FFmpegError.throwIfError(demuxers[n]!.seekSync(i.seekSeconds, -1, AVSEEK_FLAG_BACKWARD), 'seek failed');
    });
    const windows = job.inputs.map((i) => ({ from: i.seekSeconds, until: (i.seekSeconds ?? 0) + (i.durationSeconds ?? Infinity) }));
    const labels = graphInputs(job.graph ?? '');
    const sinkSpecs = job.outputs.flatMap((o) => o.streams.filter((s): s is EncodedStream => !isCopied(s)));
    const graph = job.graph
      ? FilterComplexAPI.create(job.graph, {
          inputs: labels.map((l) => ({ label: l.label })),
          outputs: sinkSpecs.map((s) => ({ label: s.label, mediaType: (s.kind === 'video' ? AVMEDIA_TYPE_VIDEO : AVMEDIA_TYPE_AUDIO) as AVMediaType })),
        })
      : undefined;

    // Decoders for the graph's inputs, keyed by input number and stream index.
    const decoders = new Map<string, Feeder>();
    for (const l of labels) {
      const stream = l.kind === 'video' ? demuxers[l.input]?.video() : demuxers[l.input]?.audio();
      if (!stream) throw new Error(`input ${l.input} has no ${l.kind} stream`);
      decoders.set(`${l.input}:${stream.index}`, { decoder: await Decoder.create(stream, { context: { threadCount: job.inputs[l.input]?.threads ?? 0 } }), label: l.label, shift: 0, ...windows[l.input]! });
    }

    const sinks = new Map<string, Sink>();
    const copies = new Map<string, { muxer: Muxer; index: number }[]>();
    const muxers: Muxer[] = [];
    for (const o of job.outputs) {
      const rotations: { index: number; angle: number }[] = [];
      const muxer = await Muxer.open(o.url, {
        format: o.format,
        options: o.options ?? {},
        maxMuxingQueueSize: 4096,
        configure: (ctx) => {
          for (const r of rotations) ctx.streams?.[r.index]?.codecpar.addCodedSideData(AV_PKT_DATA_DISPLAYMATRIX, displayMatrix(r.angle));
        },
      });
      muxers.push(muxer);
      const state: OutputState = { frames: o.frames, written: 0 };
      for (const s of o.streams) {
        if (isCopied(s)) {
          const stream = s.kind === 'video' ? demuxers[s.copyFrom]?.video() : demuxers[s.copyFrom]?.audio();
          if (!stream) throw new Error(`input ${s.copyFrom} has no ${s.kind} stream`);
          const key = `${s.copyFrom}:${stream.index}`;
          copies.set(key, [...(copies.get(key) ?? []), { muxer, index: muxer.addStream(stream) }]);
          continue;
        }
        const encoder = await Encoder.create(s.codec as never, {
          ...(s.bitrate ? { bitrate: s.bitrate } : {}),
          ...(s.maxrate ? { maxRate: s.maxrate } : {}),
          ...(s.bufsize ? { bufSize: s.bufsize } : {}),
          options: s.options ?? {},
          configure: (ctx) => {
            if (!s.fps) return;
            ctx.framerate = parseRate(s.fps);
            ctx.timeBase = new Rational(ctx.framerate.den, ctx.framerate.num);
          },
        });
        const index = muxer.addStream(encoder);
        if (s.displayRotation !== undefined) rotations.push({ index, angle: s.displayRotation });
        sinks.set(s.label, { stream: s, encoder, muxer, index, output: state, done: false });
      }
    }

    let outSeconds = 0;
    let lastReport = 0;
    const writeAll = (sink: Sink) => {
      for (;;) {
        const packet = sink.encoder.receiveSync();
        if (!packet || packet === EOF) return;
        sink.muxer.writePacketSync(packet, sink.index);
        packet.free();
      }
    };
    const finish = (sink: Sink) => {
      if (sink.done) return;
      sink.done = true;
      sink.encoder.encodeSync(null);
      writeAll(sink);
    };
    /** Pulls every frame the graph has ready into its encoder (or drops it once the output is full). */
    const pump = () => {
      if (!graph) return;
      for (const [label, sink] of sinks) {
        for (;;) {
          const frame = graph.receiveSync(label);
          if (!frame) break;
          if (frame === EOF) {
            finish(sink);
            break;
          }
          if (!sink.done) {
            if (frame.pts !== null && frame.timeBase.den > 0) outSeconds = Math.max(outSeconds, (Number(frame.pts) * frame.timeBase.num) / frame.timeBase.den);
            sink.encoder.encodeSync(frame);
            writeAll(sink);
            if (sink.stream.kind === 'video' && sink.output.frames !== undefined && ++sink.output.written >= sink.output.frames) finish(sink);
          }
          frame.free();
        }
      }
      const now = Date.now();
      if (now - lastReport >= 500) {
        lastReport = now;
        // Orphaned (the worker was killed): stop rather than write into a folder the next worker reuses.
        if (process.ppid !== parentPid) process.exit(1);
        out({ progress: outSeconds });
      }
    };

    /**
     * Closes up timestamp gaps so a file claiming hours between two frames is not padded out to
     * hours, and moves a window's start to 0. 'before' and 'after' the input's window: not sent.
     */
    const retime = (d: Feeder, frame: Frame): 'before' | 'after' | 'in' => {
      if (frame.pts === null) return 'in';
      const tb = frame.timeBase;
      const original = (Number(frame.pts) * tb.num) / tb.den;
      const start = d.from ?? 0;
      if (d.from !== undefined && original < d.from - 1e-6) return 'before';
      if (original >= d.until - 1e-6) return 'after';
      const seconds = original - start + d.shift;
      if (d.last !== undefined && seconds - d.last > MAX_GAP_SECONDS) d.shift -= seconds - d.last - 1 / 25;
      const fixed = original - start + d.shift;
      frame.pts = BigInt(Math.round((fixed * tb.den) / tb.num));
      d.last = fixed;
      return 'in';
    };

    const feed = (d: Feeder, packet: Packet | null) => {
      if (d.closed) return;
      for (const frame of d.decoder.decodeAllSync(packet)) {
        const at = retime(d, frame);
        try {
          if (at === 'in') graph!.processSync(d.label, frame);
        } catch (err) {
          // The graph needs no more of this input (a trim ended): the rest is skipped, not an error.
          if (!(err instanceof FFmpegError && err.code === AVERROR_EOF)) throw err;
          d.closed = true;
        }
        frame.free();
        if (at === 'after') {
          // The input's window is over: the graph gets its end now, and the rest is not read.
          graph!.flushSync(d.label);
          d.closed = true;
        }
        if (d.closed) break;
      }
      if (!packet && !d.closed) graph!.flushSync(d.label);
      pump();
    };

    // Read the inputs side by side, always the one furthest behind, so the graph gets what it needs in order.
    const readers = demuxers.map((dm, i) => ({ i, it: dm.packetsSync(), at: 0, ended: false }));
    for (;;) {
      const reader = readers.filter((r) => !r.ended).sort((a, b) => a.at - b.at)[0];
      if (!reader) break;
      const next = reader.it.next();
      const packet = next.done ? null : next.value;
      if (!packet) {
        reader.ended = true;
        for (const [key, d] of decoders) if (key.startsWith(`${reader.i}:`)) feed(d, null);
        continue;
      }
      const key = `${reader.i}:${packet.streamIndex}`;
      const tb = demuxers[reader.i]!.getStream(packet.streamIndex)?.timeBase;
      // In the input's own time (a window starts at 0), as the graph sees its frames.
      if (tb && packet.dts !== null) reader.at = (Number(packet.dts) * tb.num) / tb.den - (windows[reader.i]!.from ?? 0);
      for (const c of copies.get(key) ?? []) c.muxer.writePacketSync(packet, c.index);
      if (copies.has(key) && tb && packet.pts !== null) outSeconds = Math.max(outSeconds, (Number(packet.pts) * tb.num) / tb.den);
      const d = decoders.get(key);
      if (d) feed(d, packet);
      packet.free();
      // A window that every consumer has done with: the rest of its file is not read.
      if (windows[reader.i]!.until !== Infinity && (d?.closed ?? true)) {
        const mine = [...decoders].filter(([k]) => k.startsWith(`${reader.i}:`));
        const copied = [...copies.keys()].some((k) => k.startsWith(`${reader.i}:`));
        if (!copied && mine.every(([, f]) => f.closed)) reader.ended = true;
      }
    }
    pump();
    for (const sink of sinks.values()) finish(sink);
    for (const m of muxers) await m.close();
    return { outSeconds };
  } finally {
    for (const d of demuxers) await d.close();
  }
}

async function readStdin(): Promise<string> {
  let text = '';
  for await (const piece of process.stdin) text += String(piece);
  return text;
}

async function main() {
  const [op, arg] = process.argv.slice(2);
  // '-': the request comes on stdin, once the caller has it (a probe started while its file is written).
  const text = arg === '-' ? await readStdin() : arg;
  const req = text ? (JSON.parse(text) as { op?: string; file?: string; job?: MediaJob }) : {};
  // 'request': a child started ahead of its request (MediaEngine.prepare), which names the op.
  const kind = op === 'request' ? req.op : op;
  if (kind === 'probe' && req.file) out({ probe: await probe(req.file) });
  else if (kind === 'run' && req.job) out(await run(req.job));
  else if (kind === 'check') out(check());
  else throw new Error(`usage: av-runner probe|run|check|request '<json>'`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
