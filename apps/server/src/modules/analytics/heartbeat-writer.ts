import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/client.ts';
import { directlyVisibleTo } from '../../policy/visibility.ts';
import { AnalyticsRepository, type StoredEvent, type WatchEvent } from './analytics.repository.ts';

/** Buffered heartbeats are written at the latest this long after the first of them arrived. */
export const FLUSH_MS = 200;
/** Videos whose facts are kept at once (the oldest read is dropped first). */
export const CACHED_VIDEOS = 10_000;

type Facts = { ownerId: string; duration: number; shown: boolean } | null;

export interface HeartbeatWriterOptions {
  /** Heartbeats per INSERT; the one that fills a batch waits for its write. */
  batchRows: number;
  /** How long a video's facts (its visibility included) are reused; 0: read each time. */
  cacheMs: number;
  /** The clock, in ms (tests move it). */
  now?: () => number;
}

/**
 * The heartbeat hot path without a statement per heartbeat: what the visibility rule says about a
 * video is read once per `cacheMs` (so a video made private refuses heartbeats within that time),
 * and accepted heartbeats are written together, one INSERT per `batchRows` or per FLUSH_MS. A
 * graceful stop writes what is buffered (close()); a crash loses at most the last FLUSH_MS.
 */
export class HeartbeatWriter {
  private readonly repo: AnalyticsRepository;
  private readonly now: () => number;
  private readonly facts = new Map<string, { value: Promise<Facts>; expires: number }>();
  private buffer: StoredEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly writing = new Set<Promise<void>>();

  constructor(
    db: Executor,
    private readonly log: FastifyBaseLogger,
    private readonly opts: HeartbeatWriterOptions,
  ) {
    this.repo = new AnalyticsRepository(db);
    this.now = opts.now ?? Date.now;
  }

  /**
   * Takes a heartbeat if the viewer may open the video, keeping its distinct positions inside the
   * video (sorted). `found` false: no such video for this viewer; `accepted`: the positions kept.
   */
  async accept(e: WatchEvent, viewerId: string | null): Promise<{ found: boolean; accepted: number }> {
    const video = await this.factsOf(e.videoId);
    if (!video || !directlyVisibleTo(video.shown, video.ownerId, viewerId)) return { found: false, accepted: 0 };
    const positions = [...new Set(e.positions.filter((p) => p < video.duration))].sort((a, b) => a - b);
    if (positions.length > 0) await this.add({ ...e, positions, at: new Date(this.now()) });
    return { found: true, accepted: positions.length };
  }

  /** Writes everything buffered, and waits for writes already under way. */
  async flush(): Promise<void> {
    this.write();
    await Promise.all(this.writing);
  }

  /** Stops the timer and writes what is left (the app's onClose). */
  close(): Promise<void> {
    clearTimeout(this.timer);
    return this.flush();
  }

  private factsOf(videoId: string): Promise<Facts> {
    const now = this.now();
    const hit = this.facts.get(videoId);
    if (hit && hit.expires > now) return hit.value;
    this.facts.delete(videoId);
    if (this.facts.size >= CACHED_VIDEOS) this.facts.delete(this.facts.keys().next().value!);
    const value = this.repo.heartbeatFacts(videoId);
    // Concurrent heartbeats of one video share one read; a failed read is not kept.
    if (this.opts.cacheMs > 0) this.facts.set(videoId, { value, expires: now + this.opts.cacheMs });
    value.catch(() => this.facts.delete(videoId));
    return value;
  }

  private add(event: StoredEvent): Promise<void> | undefined {
    this.buffer.push(event);
    // The heartbeat that fills a batch waits for its write: back-pressure when the database lags.
    if (this.buffer.length >= this.opts.batchRows) return this.write();
    this.timer ??= setTimeout(() => void this.write(), FLUSH_MS).unref();
    return undefined;
  }

  private write(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer;
    if (batch.length === 0) return Promise.resolve();
    this.buffer = [];
    const done = this.repo
      .insertEvents(batch)
      .catch((err: unknown) => this.log.error({ err, heartbeats: batch.length }, 'analytics heartbeats lost: their write failed'))
      .finally(() => this.writing.delete(done));
    this.writing.add(done);
    return done;
  }
}
