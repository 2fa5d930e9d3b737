import { RateLimitsRepository } from '../../lib/rate-limits.repository.ts';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LIVE_LOWER_RUNGS, LIVE_SOURCE, liveMasterPlaylist, planLiveJob } from '@glimpse/media';
import type { AppContext } from '../../context.ts';
import type { JobLogger } from '../../jobs/worker.ts';
import { RtmpServer, type IngestConnection, type PublishDecision, type PublishRequest } from '../../media/rtmp/rtmp-server.ts';
import { HlsMirror } from './hls-mirror.ts';
import type { LiveRow } from './lives.repository.ts';
import { liveSessionPrefix } from '../../storage/media-keys.ts';
import { HEARTBEAT_MS, LivesService, type SessionStart } from './lives.service.ts';

export interface LiveIngestOptions {
  log: JobLogger;
  /** Seconds per HLS segment of a normal-latency live (tests: 1); a low-latency one always has 1 s. */
  segmentSeconds?: number;
  /** Segments in each playlist (tests); by default as many as make a two-minute window to go back in. */
  listSize?: number;
  /** Encoder threads per lower rung (tests: 1). */
  threads?: number;
  /** A publishing encoder silent for this long is cut, and its session ends. */
  idleSeconds?: number;
  /** Called with each ended session (its recording still on disk when it has one). */
  onSessionEnd?: (ended: EndedSession) => Promise<void>;
}

export interface EndedSession {
  live: LiveRow;
  sessionId: string;
  reason: string;
  /** The source's copy, for the replay; removed after onSessionEnd returns. */
  recording?: string;
}

/** Invalid stream keys allowed from one address per minute before it is refused outright. */
const MAX_BAD_KEYS = 10;
const BAD_KEY_WINDOW_MS = 60_000;
/** Segment length of a low-latency live, seconds: the shortest FFmpeg's HLS muxer cuts reliably at 30 fps. */
const LOW_LATENCY_SEGMENT_SECONDS = 1;
/** The window a viewer can go back in (DVR), seconds. */
const DVR_WINDOW_SECONDS = 120;

/**
 * The RTMP ingest of lives (ADR 024), on the worker side so API processes stay stateless: each
 * accepted publish becomes a session whose FLV the media engine (a child process) turns into the
 * live HLS ladder, mirrored to the storage as it is written. A session ends when the encoder stops,
 * goes silent, the engine fails or stalls, or the session reaches the instance's time limit.
 */
export class LiveIngest {
  private readonly server: RtmpServer;
  private readonly service: LivesService;
  private readonly running = new Set<Promise<void>>();
  private readonly connections = new Set<IngestConnection>();

  constructor(
    private readonly ctx: AppContext,
    private readonly opts: LiveIngestOptions,
  ) {
    this.service = new LivesService(ctx);
    this.server = new RtmpServer({
      onPublish: (req) => this.decide(req),
      log: { info: (o, m) => opts.log.info(o, m), warn: (o, m) => opts.log.info(o, m) },
      idleTimeoutMs: (opts.idleSeconds ?? 10) * 1000,
      proxyProtocol: ctx.config.live.proxyProtocol,
    });
  }

  listen(port: number, host?: string): Promise<number> {
    return this.server.listen(port, host);
  }

  /** Stops taking streams, ends every session (each saves what it has) and waits for them. */
  async stop(): Promise<void> {
    for (const c of this.connections) c.close('the server is shutting down');
    await this.server.close();
    await Promise.all([...this.running]);
  }

  private async decide(req: PublishRequest): Promise<PublishDecision> {
    if (req.app !== 'live') return { refuse: 'Unknown application: use the RTMP URL shown with your live' };
    // Counted in the shared rate-limit table, so every worker's ingest sees the same count.
    const limits = new RateLimitsRepository(this.ctx.db);
    const key = `live-key:${req.remoteAddress}`;
    if ((await limits.hitsNow(key)) >= MAX_BAD_KEYS) return { refuse: 'Too many invalid stream keys; try again in a minute' };
    const start = await this.service.startSession(req.streamName);
    if ('refuse' in start) {
      if (start.refuse === 'Invalid stream key') await limits.hit(key, BAD_KEY_WINDOW_MS);
      return start;
    }
    return {
      accept: (conn) => {
        const done = this.run(start, conn)
          .catch((err: unknown) => this.opts.log.error({ liveId: start.live.id, err: (err as Error).message }, 'live session failed'))
          .finally(() => this.running.delete(done));
        this.running.add(done);
      },
    };
  }

  private async run(start: Exclude<SessionStart, { refuse: string }>, conn: IngestConnection): Promise<void> {
    const { live, sessionId, previousSessionId, maxSeconds } = start;
    const { storage, media } = this.ctx;
    const log = this.opts.log;
    const prefix = liveSessionPrefix(live.id, sessionId);
    this.connections.add(conn);
    // The first cause wins: a refused codec closes the connection, and the engine then fails on the cut stream.
    let reason: string | undefined;
    conn.onClose((why) => (reason ??= why));
    const limit = setTimeout(() => conn.close('the session reached its time limit'), maxSeconds * 1000);
    const beat = setInterval(() => {
      Promise.all([this.service.heartbeat(live, sessionId), this.service.forgetViewers(live.id)])
        .then(([alive]) => {
          // The owner was suspended, or the live or its account deleted: the stream stops within a beat.
          if (!alive) conn.close('the live may no longer be on air');
        })
        .catch((err: unknown) => log.error({ liveId: live.id, err: (err as Error).message }, 'live heartbeat failed'));
    }, HEARTBEAT_MS);
    let dir: string | undefined;
    let mirror: HlsMirror | undefined;
    let recording: string | undefined;
    log.info({ liveId: live.id, sessionId }, 'live session started');
    try {
      dir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-live-'));
      mirror = new HlsMirror(dir, storage, prefix, (err) => log.error({ liveId: live.id, err: (err as Error).message }, 'live segments could not be stored'));
      recording = live.saveReplay ? path.join(dir, 'recording.mkv') : undefined;
      // A new session replaces the last one's files (only those: the live's thumbnail lives beside them).
      if (previousSessionId) await storage.deletePrefix(`${liveSessionPrefix(live.id, previousSessionId)}/`).catch(() => undefined);
      for (const r of [LIVE_SOURCE, ...LIVE_LOWER_RUNGS.map((x) => x.name)]) await mkdir(path.join(dir, r));
      await storage.putBuffer(`${prefix}/master.m3u8`, Buffer.from(liveMasterPlaylist(LIVE_LOWER_RUNGS)), 'application/vnd.apple.mpegurl');
      // Low latency: shorter segments (and the lower rungs' keyframes with them), so the playlist's
      // target and the player's distance to the live edge shrink too (ADR 024, "Latency").
      const segmentSeconds = live.latencyMode === 'low' ? LOW_LATENCY_SEGMENT_SECONDS : (this.opts.segmentSeconds ?? 2);
      const job = planLiveJob({
        inputUrl: 'pipe:0',
        outDir: dir,
        segmentSeconds,
        listSize: this.opts.listSize ?? Math.ceil(DVR_WINDOW_SECONDS / segmentSeconds),
        rungs: LIVE_LOWER_RUNGS,
        recordingPath: recording,
        threads: this.opts.threads,
      });
      // A segment waits up to one pass before viewers can have it: a tenth of a segment.
      mirror.start(segmentSeconds * 100);
      await media.engine
        .run(job, { input: conn.flv, stallSeconds: this.opts.idleSeconds ?? 10, timeoutSeconds: maxSeconds + 60 })
        .catch((err: unknown) => {
          reason ??= `the live engine stopped: ${(err as Error).message}`;
        });
      reason ??= 'the stream ended';
    } catch (err) {
      // Storage or disk refused the session's first files: this session ends, the process goes on.
      reason ??= `the session could not start: ${(err as Error).message}`;
    } finally {
      clearTimeout(limit);
      clearInterval(beat);
      reason ??= 'the session could not start';
      conn.close(reason);
      this.connections.delete(conn);
      await mirror?.stop();
      await this.service.forgetViewers(live.id, true).catch(() => undefined);
      const ended = await this.service.endSession(live, sessionId, (mirror?.stored ?? 0) > 0).catch((err: unknown) => {
        log.error({ liveId: live.id, err: (err as Error).message }, 'live session could not be ended');
        return undefined;
      });
      log.info({ liveId: live.id, sessionId, reason }, 'live session ended');
      const kept = recording && (await stat(recording).then((s) => s.size > 0, () => false)) ? recording : undefined;
      if (ended && this.opts.onSessionEnd) {
        await this.opts.onSessionEnd({ live: ended, sessionId, reason, ...(kept ? { recording: kept } : {}) }).catch((err: unknown) => {
          log.error({ liveId: live.id, err: (err as Error).message }, 'live replay could not be saved');
        });
      }
      if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }
}
