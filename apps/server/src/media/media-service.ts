import { NOT_A_VIDEO, parseProbe, ProbeError, refusalOf, type ProbeResult } from '@glimpse/media';
import type { Config } from '../config.ts';
import { ApiError } from '../lib/errors.ts';
import { createMediaEngine, MediaToolError, type EngineStatus, type MediaEngine } from './engine.ts';

/** The media engine and what it can do here, checked once (at start-up) and remembered. */
export class MediaService {
  readonly engine: MediaEngine;
  private checked: Promise<EngineStatus> | undefined;

  constructor(private readonly config: Config['media']) {
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
  async inspect(file: string | Promise<string>, maxDurationSeconds: number): Promise<ProbeResult> {
    let raw;
    try {
      raw = await this.engine.probe(file);
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
