import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { getPriority, setPriority } from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { buildProbeArgs, ProgressParser, toFfmpegArgs, type MediaJob, type RawProbe } from '@glimpse/media';
import type { Config } from '../config.ts';
import { ENGINE_NEEDS } from './engine-needs.ts';

/** The file made the engine fail (bad or hostile media): the uploader's problem, not the server's. */
export class MediaToolError extends Error {}

/** The engine was stopped by a bound (stall, time limit) or by a cancel: the reason is for the owner. */
export class MediaStoppedError extends Error {}

export interface RunOptions {
  /** Seconds of output written so far. */
  onProgress?: (seconds: number) => void;
  signal?: AbortSignal;
  /** Stop when no progress has been reported for this long. */
  stallSeconds?: number;
  /** Stop after this long in all. */
  timeoutSeconds?: number;
  /** Bytes for the engine's standard input (a live's FLV, read as `pipe:0`). */
  input?: Readable;
  /** Run at a lower CPU priority (niceness +10): work started ahead of need yields to requests under way. */
  background?: boolean;
}

export interface EngineStatus {
  engine: 'bundled' | 'system';
  version: string;
  /** What the engine lacks of ENGINE_NEEDS, or why it could not start; empty when usable. */
  problems: string[];
}

export interface MediaEngine {
  readonly name: 'bundled' | 'system';
  /**
   * The file in ffprobe's JSON shape; MediaToolError when it cannot be read as media. `file` may be
   * a promise of the path (a file still being written): the bundled engine starts its child at once
   * and hands it the path when the promise resolves (ADR 025); a rejected promise stops the child.
   */
  probe(file: string | Promise<string>, signal?: AbortSignal): Promise<RawProbe>;
  /** Runs a job; resolves with the seconds of output written. */
  run(job: MediaJob, opts?: RunOptions): Promise<{ outSeconds: number }>;
  /**
   * An engine started ahead of its one request: the bundled engine's child (Node and FFmpeg's
   * libraries, about 0.3 s) starts now, while the caller does other work, and waits; the bounds'
   * clocks start when the request is given. `signal` stops it meanwhile too.
   */
  prepare(signal?: AbortSignal): PreparedEngine;
  check(): Promise<EngineStatus>;
}

/** One request to an engine already started (MediaEngine.prepare); `cancel` ends it when none will come. */
export interface PreparedEngine {
  probe(file: string): Promise<RawProbe>;
  run(job: MediaJob, opts?: Omit<RunOptions, 'signal' | 'input'>): Promise<{ outSeconds: number }>;
  cancel(): void;
}

/** How much nicer than this process a child in the background runs (see RunOptions.background). */
export const BACKGROUND_NICENESS = 10;

interface Spawned {
  bin: string;
  args: string[];
  cwd?: string;
  /** Takes stdout (then not collected) chunk by chunk; returns the progress seconds it saw, if any. */
  onStdout?: (text: string) => number | undefined;
  /** Written to the child's stdin once it resolves (the bounds' clocks start then); a rejection stops the child. */
  stdin?: Promise<string>;
}

/**
 * Runs a child under the bounds: killed (the whole process, SIGKILL) on abort, when it reports
 * no progress for `stallSeconds`, or after `timeoutSeconds`. Resolves with stdout.
 */
function supervise(p: Spawned, opts: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new MediaStoppedError('cancelled'));
    const child = spawn(p.bin, p.args, { cwd: p.cwd, stdio: [p.stdin || opts.input ? 'pipe' : 'ignore', 'pipe', 'pipe'] }) as ChildProcessByStdio<Writable | null, Readable, Readable>;
    if (opts.background && child.pid) {
      try {
        setPriority(child.pid, Math.min(19, getPriority() + BACKGROUND_NICENESS));
      } catch {
        // A platform without priorities: the child runs as any other.
      }
    }
    if (opts.input && child.stdin) {
      // The engine stopping early (EPIPE) is reported by its exit, not by the pipe.
      child.stdin.on('error', () => undefined);
      opts.input.pipe(child.stdin);
    }
    let stdout = '';
    let stderr = '';
    let stopped: string | undefined;
    let lastProgress = -1;
    let lastProgressAt = Date.now();
    const stop = (reason: string) => {
      if (stopped) return;
      stopped = reason;
      child.kill('SIGKILL');
    };
    const onAbort = () => stop('cancelled');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const timers: NodeJS.Timeout[] = [];
    let ended = false;
    const startClocks = () => {
      if (ended) return;
      lastProgressAt = Date.now();
      if (opts.timeoutSeconds) timers.push(setTimeout(() => stop(`took longer than ${Math.round(opts.timeoutSeconds!)} s`), opts.timeoutSeconds * 1000));
      if (opts.stallSeconds) {
        const every = Math.min(1000, opts.stallSeconds * 250);
        timers.push(
          setInterval(() => {
            if (Date.now() - lastProgressAt > opts.stallSeconds! * 1000) stop(`made no progress for ${opts.stallSeconds} s`);
          }, every),
        );
      }
    };
    if (p.stdin) {
      // A closed pipe (the child died first) is reported by 'close' below, not as a stray error.
      child.stdin?.on('error', () => {});
      // While it waits for its input, the child keeps no process alive (a probe kept ready, ADR 025);
      // it ends by itself when this process does (its stdin closes).
      const handles = [child, child.stdin, child.stdout, child.stderr] as unknown as ({ ref?(): void; unref?(): void } | null)[];
      handles.forEach((h) => h?.unref?.());
      p.stdin.then(
        (text) => {
          handles.forEach((h) => h?.ref?.());
          child.stdin?.end(text);
          startClocks();
        },
        () => stop('cancelled'),
      );
    } else startClocks();
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      if (!p.onStdout) {
        stdout += d;
        return;
      }
      const seconds = p.onStdout(d);
      if (seconds !== undefined && seconds > lastProgress) {
        lastProgress = seconds;
        lastProgressAt = Date.now();
        opts.onProgress?.(seconds);
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr = (stderr + d).slice(-4000);
    });
    const done = () => {
      ended = true;
      timers.forEach((t) => clearTimeout(t));
      opts.signal?.removeEventListener('abort', onAbort);
    };
    // Not a MediaToolError: a missing binary is our fault, not the file's.
    child.on('error', (err) => {
      done();
      reject(new Error(`${path.basename(p.bin)} could not run: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      done();
      if (stopped) reject(new MediaStoppedError(stopped));
      else if (code === 0) resolve(stdout);
      else reject(new MediaToolError(`media engine exited with ${code ?? signal}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RUNNER = path.join(SERVER_DIR, 'src/media/av-runner.ts');

/**
 * The runner compiled once into one ES module (node-av left outside, under the cache folder so
 * Node finds it): a child then starts in about 0.3 CPU-s, where tsx compiling it at every start
 * cost 1.4-2.3 (five children per transcode). Named by its content, so processes sharing the
 * folder share the file; tsx is the fallback when it cannot be written (a read-only install).
 */
async function compileRunner(): Promise<string[]> {
  const { build } = await import('esbuild');
  const out = await build({ entryPoints: [RUNNER], bundle: true, platform: 'node', format: 'esm', target: 'node20', external: ['node-av'], write: false, logLevel: 'silent' });
  const code = out.outputFiles[0]!.contents;
  const dir = path.join(SERVER_DIR, 'node_modules/.cache/glimpse');
  const file = path.join(dir, `av-runner-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    await mkdir(dir, { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    await writeFile(partial, code);
    await rename(partial, file);
  }
  return [file];
}

let runnerArgs: Promise<string[]> | undefined;
const runner = () =>
  (runnerArgs ??= compileRunner().catch((err: unknown) => {
    // Said once, so an operator knows why every transcode costs more CPU than it should.
    process.emitWarning(`the media engine's runner could not be compiled (${err instanceof Error ? err.message : String(err)}): each engine start compiles it again with tsx, 1-2 CPU-s more`);
    return ['--import', 'tsx', RUNNER];
  }));

/** A line of JSON, or undefined for anything else a native library may have printed. */
function jsonLine(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Lines of JSON from the runner: `{"progress":s}` lines report progress, the last other one is the result. */
function runnerLines() {
  let buffer = '';
  let result: Record<string, unknown> | undefined;
  const take = (line: string): number | undefined => {
    const msg = jsonLine(line);
    if (typeof msg?.progress === 'number') return msg.progress;
    if (msg) result = msg;
    return undefined;
  };
  return {
    onStdout(text: string): number | undefined {
      buffer += text;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      return lines.map(take).reduce<number | undefined>((last, s) => s ?? last, undefined);
    },
    result(): Record<string, unknown> {
      if (buffer) take(buffer);
      if (!result) throw new MediaToolError('the media engine gave no result');
      return result;
    },
  };
}

/** FFmpeg's libraries from the node-av npm package, driven by av-runner.ts in a child process. */
export class BundledEngine implements MediaEngine {
  readonly name = 'bundled';

  /**
   * Runs the runner on `req`, given on the command line, or on stdin once it resolves ('-' on the
   * command line); with op 'request', the request on stdin names its op.
   */
  private async call(op: 'probe' | 'run' | 'check' | 'request', req: object | Promise<object>, opts?: RunOptions): Promise<Record<string, unknown>> {
    const lines = runnerLines();
    const later = req instanceof Promise ? req.then((r) => JSON.stringify(r)) : undefined;
    // A rejection stops the child once it is spawned (supervise); until then nothing else listens.
    later?.catch(() => {});
    const arg = later ? '-' : JSON.stringify(req);
    await supervise({ bin: process.execPath, args: [...(await runner()), op, arg], cwd: SERVER_DIR, onStdout: lines.onStdout, stdin: later }, opts);
    return lines.result();
  }

  async probe(file: string | Promise<string>, signal?: AbortSignal): Promise<RawProbe> {
    // The runner's start (Node and FFmpeg's libraries: a fraction of a second) overlaps the file's
    // writing; started ahead, it yields the CPU to the upload's chunks meanwhile (ADR 025).
    const req = typeof file === 'string' ? { file } : file.then((f) => ({ file: f }));
    return (await this.call('probe', req, { signal, timeoutSeconds: 120, background: typeof file !== 'string' })).probe as RawProbe;
  }

  async run(job: MediaJob, opts?: RunOptions): Promise<{ outSeconds: number }> {
    const r = await this.call('run', { job }, opts);
    return { outSeconds: Number(r.outSeconds ?? 0) };
  }

  prepare(signal?: AbortSignal): PreparedEngine {
    // Read by the child's supervisor when the request is given (its clocks start then).
    const bounds: RunOptions = { signal };
    let give!: (req: object) => void;
    let drop!: (err: Error) => void;
    const request = new Promise<object>((resolve, reject) => ((give = resolve), (drop = reject)));
    const result = this.call('request', request, bounds);
    // A cancelled child's rejection is nobody's error; a used one's reaches its caller below.
    result.catch(() => {});
    let used = false;
    const use = (req: object, opts: RunOptions) => {
      if (used) throw new Error('a prepared engine takes one request');
      used = true;
      Object.assign(bounds, opts);
      give(req);
      return result;
    };
    return {
      probe: async (file) => (await use({ op: 'probe', file }, { timeoutSeconds: 120 })).probe as RawProbe,
      run: async (job, opts = {}) => ({ outSeconds: Number((await use({ op: 'run', job }, opts)).outSeconds ?? 0) }),
      cancel: () => {
        if (used) return;
        used = true;
        drop(new MediaStoppedError('not needed'));
      },
    };
  }

  async check(): Promise<EngineStatus> {
    try {
      const r = (await this.call('check', {}, { timeoutSeconds: 60 })) as { version: string; missing: string[] };
      return { engine: this.name, version: r.version, problems: r.missing };
    } catch (err) {
      return { engine: this.name, version: 'unknown', problems: [`the bundled engine (node-av) does not load here: ${(err as Error).message}`] };
    }
  }
}

/** Names in the second column of `ffmpeg -encoders` / `-decoders` / `-muxers` / `-demuxers` / `-filters`. */
function listed(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const cols = line.trim().split(/\s+/);
    if (cols.length >= 2) for (const n of cols[1]!.split(',')) names.add(n);
  }
  return names;
}

/** A system ffmpeg/ffprobe (FFMPEG_PATH / FFPROBE_PATH, else the PATH): the operator's override. */
export class SystemEngine implements MediaEngine {
  readonly name = 'system';
  constructor(private readonly bins: { ffmpeg: string; ffprobe: string }) {}

  async probe(file: string | Promise<string>, signal?: AbortSignal): Promise<RawProbe> {
    const json = await supervise({ bin: this.bins.ffprobe, args: buildProbeArgs(await file) }, { signal, timeoutSeconds: 120 });
    try {
      return JSON.parse(json) as RawProbe;
    } catch {
      throw new MediaToolError('ffprobe output is not JSON');
    }
  }

  async run(job: MediaJob, opts?: RunOptions): Promise<{ outSeconds: number }> {
    const parser = new ProgressParser();
    let outSeconds = 0;
    await supervise(
      {
        bin: this.bins.ffmpeg,
        args: toFfmpegArgs(job),
        onStdout: (t) => {
          for (const u of parser.push(t)) outSeconds = Math.max(outSeconds, u.outTimeSeconds);
          return outSeconds;
        },
      },
      opts,
    );
    return { outSeconds };
  }

  /** ffmpeg starts in milliseconds: nothing to start ahead. */
  prepare(signal?: AbortSignal): PreparedEngine {
    return { probe: (file) => this.probe(file, signal), run: (job, opts) => this.run(job, { ...opts, signal }), cancel: () => {} };
  }

  async check(): Promise<EngineStatus> {
    const ask = (flag: string) => supervise({ bin: this.bins.ffmpeg, args: ['-hide_banner', flag] }, { timeoutSeconds: 30 });
    try {
      const version = (await ask('-version')).split('\n')[0]?.replace(/^ffmpeg version /, '').split(' ')[0] ?? 'unknown';
      const [enc, dec, mux, demux, filters] = await Promise.all(['-encoders', '-decoders', '-muxers', '-demuxers', '-filters'].map(ask).map((p) => p.then(listed)));
      const missing = [
        ...ENGINE_NEEDS.decoders.filter((n) => !dec!.has(n)).map((n) => `decoder ${n}`),
        ...ENGINE_NEEDS.encoders.filter((n) => !enc!.has(n)).map((n) => `encoder ${n}`),
        ...ENGINE_NEEDS.muxers.filter((n) => !mux!.has(n)).map((n) => `muxer ${n}`),
        ...ENGINE_NEEDS.demuxers.filter((n) => !demux!.has(n)).map((n) => `demuxer ${n}`),
        ...ENGINE_NEEDS.filters.filter((n) => !filters!.has(n)).map((n) => `filter ${n}`),
      ];
      return { engine: this.name, version, problems: missing };
    } catch (err) {
      return { engine: this.name, version: 'unknown', problems: [`${this.bins.ffmpeg} does not run: ${(err as Error).message}`] };
    }
  }
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const onPath = (name: string, envPath = process.env.PATH ?? ''): string | undefined =>
  envPath
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, name))
    .find(isExecutable);

/**
 * MEDIA_ENGINE=bundled (FFmpeg inside the node-av npm package: what `npm install` brings), or
 * system (FFMPEG_PATH/FFPROBE_PATH, else ffmpeg/ffprobe on the PATH). `auto`: system when
 * FFMPEG_PATH is set, else bundled.
 */
export function createMediaEngine(media: Pick<Config['media'], 'engine' | 'ffmpegPath' | 'ffprobePath'>, envPath?: string): MediaEngine {
  const system = media.engine === 'system' || (media.engine === 'auto' && media.ffmpegPath !== undefined);
  if (!system) return new BundledEngine();
  const ffmpeg = media.ffmpegPath ?? onPath('ffmpeg', envPath) ?? 'ffmpeg';
  const ffprobe = media.ffprobePath ?? (media.ffmpegPath ? path.join(path.dirname(media.ffmpegPath), 'ffprobe') : undefined) ?? onPath('ffprobe', envPath) ?? 'ffprobe';
  return new SystemEngine({ ffmpeg, ffprobe });
}
