import { NOT_A_VIDEO, parseProbe, ProbeError, refusalOf, type ProbeResult, type RawProbe } from '@glimpse/media';
import type { Config } from '../config.ts';
import { ApiError } from '../lib/errors.ts';
import { createMediaEngine, MediaToolError, type EngineStatus, type MediaEngine } from './engine.ts';

/** Probes started ahead of their file at once, per process (see MediaService.probeAhead). */
export const PROBES_AHEAD = 2;
/** A probe kept ready (MediaService.keepProbeReady) ends after this long without another call. */
export const PROBE_READY_MS = 30_000;
/**
 * At most one probe started ahead per this long, per process: each costs its child's start (about
 * half a CPU-second) whether or not a file comes, and requests that ask for one cost their sender
 * little. Past it, a probe starts when its file is given, as `inspect` does.
 */
export const PROBE_AHEAD_EVERY_MS = 2000;

/** A probe started before its file exists: `inspect` it once, or `cancel` it. */
export interface ProbeAhead {
  inspect(file: string | Promise<string>, maxDurationSeconds: number): Promise<ProbeResult>;
  cancel(): void;
}

/** The media engine and what it can do here, checked once (at start-up) and remembered. */
export class MediaService {
  readonly engine: MediaEngine;
  private checked: Promise<EngineStatus> | undefined;
  private ahead = 0;
  private ready: { probe: ProbeAhead; expiry: NodeJS.Timeout } | undefined;

  private lastAheadAt = -Infinity;

  constructor(
    private readonly config: Config['media'],
    private readonly aheadEveryMs = PROBE_AHEAD_EVERY_MS,
  ) {
    this.engine = createMediaEngine(config);
  }

  status(): Promise<EngineStatus> {
    this.checked ??= this.engine.check();
    return this.checked;
  }

  /** 503 at once when the engine cannot transcode, instead of accepting files that fail later. */
  async assertUsable(): Promise<void> {
    const reason = await this.unavailableReason();
    if (reason) throw new ApiError(503, reason);
  }

  /** Why videos cannot be processed here, for the uploader; undefined when they can. */
  async unavailableReason(): Promise<string | undefined> {
    const s = await this.status();
    return s.problems.length > 0 ? `Video processing is unavailable on this server: ${s.problems.join('; ')}` : undefined;
  }

  /**
   * Reads an uploaded file (or the file a promise names once written: see MediaEngine.probe). Resolves with what it is, or rejects with ProbeError carrying the
   * message for the uploader (not a video we accept, longer than `maxDurationSeconds`, unreadable).
   */
  inspect(file: string | Promise<string>, maxDurationSeconds: number): Promise<ProbeResult> {
    return this.judge(this.engine.probe(file), maxDurationSeconds);
  }

  /**
   * A probe whose child process starts now, for a file given later (the last chunk of an upload:
   * the runner's start, about half a second, overlaps the chunk's arrival and the join; ADR 025).
   * `inspect` once, as MediaService.inspect, or `cancel()` when no file comes (then the child ends).
   * A child that ended before it was given its file is not blamed on the file: a fresh one probes it.
   * At most PROBES_AHEAD wait at once (each is a process of tens of MB that a slow request keeps
   * alive), and one starts per PROBE_AHEAD_EVERY_MS; past that, the probe starts when its file is
   * given, as `inspect` does.
   */
  probeAhead(): ProbeAhead {
    const ready = this.ready;
    if (ready) {
      clearTimeout(ready.expiry);
      this.ready = undefined;
      return ready.probe;
    }
    return this.startAhead() ?? { inspect: (file, max) => this.inspect(file, max), cancel: () => {} };
  }

  /** A probe whose child starts now, unless PROBES_AHEAD wait already or one started within aheadEveryMs. */
  private startAhead(): ProbeAhead | undefined {
    const now = performance.now();
    if (this.ahead >= PROBES_AHEAD || now - this.lastAheadAt < this.aheadEveryMs) return undefined;
    this.lastAheadAt = now;
    this.ahead += 1;
    let give!: (file: string) => void;
    let stop!: (err: Error) => void;
    const raw = this.engine.probe(
      new Promise<string>((resolve, reject) => {
        give = resolve;
        stop = reject;
      }),
    );
    let given = false;
    let endedEarly = false;
    const ended = () => {
      this.ahead -= 1;
      endedEarly ||= !given;
    };
    raw.then(ended, ended);
    return {
      inspect: (file, maxDurationSeconds) => {
        if (given) throw new Error('probeAhead: one file per probe');
        given = true;
        if (endedEarly) return this.inspect(file, maxDurationSeconds);
        Promise.resolve(file).then(give, stop);
        return this.judge(raw, maxDurationSeconds);
      },
      cancel: () => {
        if (given) return;
        given = true;
        stop(new Error('no file to probe'));
      },
    };
  }

  /**
   * Keeps one probe started ahead and waiting (within PROBES_AHEAD), for the next probeAhead: an
   * upload's chunks are arriving, so its last one will want one, and then finds its child already
   * started. Ends unused PROBE_READY_MS after the last call; it never holds the process open (see supervise).
   */
  keepProbeReady(): void {
    if (this.ready) {
      this.ready.expiry.refresh();
      return;
    }
    const probe = this.startAhead();
    if (!probe) return;
    const expiry = setTimeout(() => {
      if (this.ready?.probe !== probe) return;
      this.ready = undefined;
      probe.cancel();
    }, PROBE_READY_MS);
    expiry.unref();
    this.ready = { probe, expiry };
  }

  /** The probe's answer as the uploader is told it: what the file is, or a ProbeError saying why it is refused. */
  private async judge(probing: Promise<RawProbe>, maxDurationSeconds: number): Promise<ProbeResult> {
    let raw;
    try {
      raw = await probing;
    } catch (err) {
      if (err instanceof MediaToolError) throw new ProbeError(NOT_A_VIDEO);
      throw err;
    }
    const refusal = refusalOf(raw, { maxDurationSeconds });
    if (refusal) throw new ProbeError(refusal);
    try {
      return parseProbe(JSON.stringify(raw));
    } catch {
      throw new ProbeError(NOT_A_VIDEO);
    }
  }
}
