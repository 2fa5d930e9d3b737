import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { liveMessages, type Live, type LiveBody, type LivePatch, type LiveWithKey, type PageQuery } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { recordEvent } from '../../events/events.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { liveVisibleTo } from '../../policy/visibility.ts';
import { replaceFile, storeImage } from '../../storage/images.ts';
import { livePrefix } from '../../storage/media-keys.ts';
import { StorageUsageRepository } from '../quota/storage-usage.repository.ts';
import { prepareThumbnail } from '../videos/thumbnail.ts';
import { LivesRepository, type LiveRow, type VisibleLiveRow } from './lives.repository.ts';

/** A stream key is `<live id>.<secret>`: the id finds the live, the secret is compared by hash. */
const SECRET_BYTES = 32;

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

function newKey(liveId: string): { key: string; hash: string } {
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  return { key: `${liveId}.${secret}`, hash: hashSecret(secret) };
}

/** An ingest writes its heartbeat every HEARTBEAT_MS; a session silent for STALE_SESSION_MS lost its worker. */
export const HEARTBEAT_MS = 5_000;
export const STALE_SESSION_MS = 30_000;

const onAir = (row: LiveRow) => row.state === 'live' && row.heartbeatAt !== null && Date.now() - row.heartbeatAt.getTime() < STALE_SESSION_MS;

/** The state viewers see: a session whose worker died is over. */
const shownState = (row: LiveRow): LiveRow['state'] => (row.state !== 'live' || onAir(row) ? row.state : row.permanent ? 'waiting' : 'ended');

/** How long a process serves a live's HLS from the row it last read, and how many rows it keeps. */
const HLS_ROW_MS = 1_000;
const HLS_ROWS = 1_000;

/** A viewer counts while their player asked within this many seconds; a process writes each viewer at most every VIEWER_WRITE_MS. */
const VIEWER_SECONDS = 30;
const VIEWER_WRITE_MS = 10_000;
const VIEWER_WRITES_KEPT = 20_000;

/** The stored file's name, which is also the last part of the thumbnail's URL. */
const thumbnailFile = (key: string) => key.slice(key.lastIndexOf('/') + 1);


/**
 * The path part that opens a session's HLS files: `pub` for a public or unlisted live; for a private
 * one a key only its owner is given (hls.js loads playlists and segments without the login, so the
 * right to watch travels in the URL, like a private video's signed links).
 */
export function liveAccess(secret: string, row: Pick<LiveRow, 'id' | 'privacy'>, sessionId: string): string {
  if (row.privacy !== 'private') return 'pub';
  return `k-${createHmac('sha256', secret).update(`live-hls\0${row.id}\0${sessionId}`).digest('base64url').slice(0, 32)}`;
}

/**
 * A thumbnail's URL carries the same kind of access part as the HLS (`pub`, or for a private live a
 * key keyed on the file's name), because an <img> or a poster is loaded without the login.
 */
function liveThumbnailUrl(secret: string, row: LiveRow, key: string): string {
  const file = thumbnailFile(key);
  return `/api/v1/lives/${row.id}/thumbnail/${liveAccess(secret, row, file)}/${file}`;
}

export function presentLive(secret: string, row: LiveRow, viewers: number | null = null, access = 'pub'): Live {
  return {
    _id: row.id,
    ownerId: row.ownerId,
    title: row.title,
    description: row.description,
    privacy: row.privacy,
    permanent: row.permanent,
    saveReplay: row.saveReplay,
    latencyMode: row.latencyMode,
    state: shownState(row),
    startedAt: row.startedAt?.toISOString() ?? null,
    endedAt: row.endedAt?.toISOString() ?? null,
    hlsUrl: onAir(row) && row.sessionId ? `/api/v1/lives/${row.id}/hls/${row.sessionId}/${access}/master.m3u8` : null,
    viewers: onAir(row) ? viewers : null,
    replayVideoId: row.replayVideoId,
    thumbnail: row.thumbnailKey ? liveThumbnailUrl(secret, row, row.thumbnailKey) : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** "1 live", "2 lives": the refusals are read by people. */
const countLives = (n: number) => `${n} ${n === 1 ? 'live' : 'lives'}`;

/**
 * Why a publish is refused, in words the creator sees in their encoder's log; or the session it
 * starts, with `previousSessionId`, the last session's, whose files the new one replaces.
 */
export type SessionStart = { refuse: string } | { live: LiveRow; sessionId: string; previousSessionId: string | null; maxSeconds: number };

export class LivesService {
  private readonly repo: LivesRepository;
  private readonly hlsRows = new Map<string, { row: VisibleLiveRow | undefined; at: number }>();
  private readonly viewerWrites = new Map<string, number>();

  constructor(private readonly ctx: AppContext) {
    this.repo = new LivesRepository(ctx.db);
  }

  /** The URL creators paste into OBS as "Server". */
  rtmpUrl(): string {
    const { live, publicUrl } = this.ctx.config;
    if (live.rtmpUrl) return live.rtmpUrl;
    // An API process without an ingest of its own (port 0) points at the workers' default port.
    return `rtmp://${new URL(publicUrl).hostname}:${live.rtmpPort || 1935}/live`;
  }

  private async requireEnabled() {
    if (!(await this.ctx.settings.get()).livesEnabled) throw forbidden(liveMessages.disabled);
  }

  private async owned(viewerId: string, liveId: string): Promise<LiveRow> {
    const row = await this.repo.find(liveId);
    if (!row) throw notFound(liveMessages.notFound);
    if (row.ownerId !== viewerId) throw forbidden(liveMessages.notOwner);
    return row;
  }

  async create(viewerId: string, body: LiveBody): Promise<LiveWithKey> {
    await this.requireEnabled();
    // Lives are cheap rows, but not free: a bound on how many one account keeps.
    if ((await this.repo.countByOwner(viewerId)) >= 50) throw badRequest('You can keep at most 50 lives; delete one first');
    const id = newId();
    const { key, hash } = newKey(id);
    const row = await this.repo.insert({ id, ownerId: viewerId, ...body, keyHash: hash });
    return { live: presentLive(this.ctx.config.jwtSecret, row), rtmpUrl: this.rtmpUrl(), streamKey: key };
  }

  async list(viewerId: string, q: PageQuery): Promise<Live[]> {
    const rows = await this.repo.listByOwner(viewerId, q.limit, (q.page - 1) * q.limit);
    return rows.map((row) => presentLive(this.ctx.config.jwtSecret, row, null, this.access(row)));
  }

  /** A live as the viewer may see it: a private one is "not found" to anyone but its owner. */
  async get(viewerId: string | null, liveId: string): Promise<Live> {
    const row = await this.repo.find(liveId);
    if (!row || !liveVisibleTo(row, viewerId)) throw notFound(liveMessages.notFound);
    // The replay is named to who may open it: it is private until its owner publishes it.
    const replayVideoId = row.replayVideoId && (await this.repo.videoVisible(row.replayVideoId, viewerId)) ? row.replayVideoId : null;
    const viewers = onAir(row) ? await this.repo.viewers(liveId, VIEWER_SECONDS) : null;
    return presentLive(this.ctx.config.jwtSecret, { ...row, replayVideoId }, viewers, this.access(row));
  }

  async update(viewerId: string, liveId: string, patch: LivePatch): Promise<Live> {
    await this.owned(viewerId, liveId);
    const row = (await this.repo.update(liveId, patch))!;
    return presentLive(this.ctx.config.jwtSecret, row, null, this.access(row));
  }

  async remove(viewerId: string, liveId: string): Promise<void> {
    const row = await this.owned(viewerId, liveId);
    if (onAir(row)) throw conflict(liveMessages.onAir);
    await this.ctx.db.transaction(async (tx) => {
      await new LivesRepository(tx).delete(liveId);
      await new StorageUsageRepository(tx).recount(row.ownerId);
    });
    await this.ctx.storage.deletePrefix(livePrefix(liveId));
  }

  /** Ownership alone, so a route reads no upload from a stranger. */
  async checkOwner(viewerId: string, liveId: string): Promise<void> {
    await this.owned(viewerId, liveId);
  }

  /**
   * Sets (imagePath) or removes (null) the live's thumbnail: checked and re-encoded as a video's
   * thumbnail before anything changes; the file it replaces is deleted.
   */
  async setThumbnail(viewerId: string, liveId: string, imagePath: string | null): Promise<Live> {
    await this.owned(viewerId, liveId);
    if (imagePath === null) {
      const row = await this.ctx.db.transaction(async (tx) => {
        const repo = new LivesRepository(tx);
        const locked = await repo.lock(liveId);
        if (!locked) return undefined;
        await repo.update(liveId, { thumbnailKey: null, thumbnailBytes: 0 });
        await new StorageUsageRepository(tx).recount(locked.ownerId);
        return locked;
      });
      if (!row) throw notFound(liveMessages.notFound);
      if (row.thumbnailKey) await this.ctx.storage.delete(row.thumbnailKey);
    } else {
      const image = await prepareThumbnail(imagePath);
      const key = await storeImage(this.ctx.storage, `${livePrefix(liveId)}/thumb-`, image);
      const done = await replaceFile(this.ctx.storage, this.ctx.db, key, async (tx) => {
        const repo = new LivesRepository(tx);
        const locked = await repo.lock(liveId);
        if (!locked) return undefined;
        await repo.update(liveId, { thumbnailKey: key, thumbnailBytes: image.body.length });
        // Counted like a video's thumbnail: toward the quota, never refused (QuotaService).
        await new StorageUsageRepository(tx).recount(locked.ownerId);
        return { oldKey: locked.thumbnailKey, result: true };
      });
      if (!done) throw notFound(liveMessages.notFound);
    }
    const row = (await this.repo.find(liveId))!;
    return presentLive(this.ctx.config.jwtSecret, row, null, this.access(row));
  }

  /** The stored key of the thumbnail `file`, if `access` opens it (as for the HLS); 404 otherwise. */
  async thumbnail(access: string, liveId: string, file: string): Promise<{ key: string; privacy: LiveRow['privacy'] }> {
    const row = await this.repo.find(liveId);
    const current = row?.thumbnailKey ? thumbnailFile(row.thumbnailKey) : undefined;
    const expected = row && current === file ? Buffer.from(liveAccess(this.ctx.config.jwtSecret, row, file)) : undefined;
    const given = Buffer.from(access);
    if (!row?.thumbnailKey || row.ownerSuspended || !expected || expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw notFound(liveMessages.notFound);
    }
    return { key: row.thumbnailKey, privacy: row.privacy };
  }

  /** A new key; the old one stops working at once (a session on air goes on until it ends). */
  async regenerateKey(viewerId: string, liveId: string): Promise<LiveWithKey> {
    await this.requireEnabled();
    await this.owned(viewerId, liveId);
    const { key, hash } = newKey(liveId);
    const row = await this.repo.update(liveId, { keyHash: hash });
    return { live: presentLive(this.ctx.config.jwtSecret, row!), rtmpUrl: this.rtmpUrl(), streamKey: key };
  }

  /**
   * The ingest asks whether a publish may start: the key must match (compared in constant time),
   * lives must be on, the live waiting, and the instance and the owner under their caps. Starting
   * takes an instance-wide lock so two workers cannot both take the last place.
   */
  async startSession(streamKey: string): Promise<SessionStart> {
    const refused = { refuse: 'Invalid stream key' };
    const dot = streamKey.indexOf('.');
    const liveId = streamKey.slice(0, dot);
    const secret = streamKey.slice(dot + 1);
    if (dot < 0 || !/^[0-9a-f-]{36}$/.test(liveId) || secret.length === 0 || secret.length > 100) return refused;
    const settings = await this.ctx.settings.get();
    return this.ctx.db.transaction(async (tx) => {
      const repo = new LivesRepository(tx);
      await repo.lockSessionStarts();
      const row = await repo.lock(liveId);
      const given = Buffer.from(hashSecret(secret), 'hex');
      const stored = Buffer.from(row?.keyHash ?? hashSecret('no live'), 'hex');
      if (!row || given.length !== stored.length || !timingSafeEqual(given, stored)) return refused;
      if (!settings.livesEnabled) return { refuse: liveMessages.disabled };
      if (row.ownerSuspended) return { refuse: 'This account is suspended' };
      if (onAir(row)) return { refuse: 'This live is already on air' };
      // A session whose worker died (stale heartbeat) does not use up a one-off live.
      if (row.state === 'ended' && !row.permanent) return { refuse: 'This live has ended; create a new live or make it permanent' };
      const busy = await repo.onAir(row.ownerId, STALE_SESSION_MS);
      if (busy.all >= settings.maxLivesPerInstance) return { refuse: `This instance allows ${countLives(settings.maxLivesPerInstance)} at a time; try again later` };
      if (busy.owner >= settings.maxLivesPerUser) return { refuse: `You can have ${countLives(settings.maxLivesPerUser)} on air at a time` };
      const sessionId = newId();
      const now = new Date();
      const live = await repo.update(liveId, { state: 'live', sessionId, startedAt: now, endedAt: null, heartbeatAt: now });
      await recordEvent(tx, { kind: 'liveStarted', actorId: row.ownerId, liveId, sessionId });
      return { live: live!, sessionId, previousSessionId: row.sessionId, maxSeconds: settings.maxLiveMinutes * 60 };
    });
  }

  /**
   * The session is over: a permanent live waits for the next one, a one-off live has ended. A
   * session that never produced a segment (refused codec, an encoder that gave up at once) does
   * not use up a one-off live.
   */
  async endSession(live: LiveRow, sessionId: string, aired = true): Promise<LiveRow | undefined> {
    return this.repo.endSession(live.id, sessionId, aired);
  }

  /** The session is alive; false when it must stop (see LivesRepository.heartbeat). */
  heartbeat(live: LiveRow, sessionId: string): Promise<boolean> {
    return this.repo.heartbeat(live.id, sessionId);
  }

  /**
   * A player asked for a rung's playlist (every segment, while it plays): the viewer, as a keyed
   * hash of address and browser, is counted for VIEWER_SECONDS. Written at most every
   * VIEWER_WRITE_MS per viewer and process, so a live's viewers do not become a write per request.
   */
  async sawViewer(liveId: string, address: string, userAgent: string): Promise<void> {
    const viewer = createHmac('sha256', this.ctx.config.jwtSecret).update(`live-viewer\0${liveId}\0${address}\0${userAgent}`).digest('hex').slice(0, 32);
    const key = `${liveId}:${viewer}`;
    const last = this.viewerWrites.get(key);
    if (last && Date.now() - last < VIEWER_WRITE_MS) return;
    if (this.viewerWrites.size >= VIEWER_WRITES_KEPT) this.viewerWrites.clear();
    this.viewerWrites.set(key, Date.now());
    await this.repo.sawViewer(liveId, viewer);
  }

  /** Drops viewers gone for a while (the ingest, every heartbeat), or every one of them (at the session's end). */
  async forgetViewers(liveId: string, all = false): Promise<void> {
    await this.repo.forgetViewers(liveId, all ? 0 : VIEWER_SECONDS * 2);
  }

  private async cachedRow(liveId: string): Promise<VisibleLiveRow | undefined> {
    const hit = this.hlsRows.get(liveId);
    if (hit && Date.now() - hit.at < HLS_ROW_MS) return hit.row;
    const row = await this.repo.find(liveId);
    // Bounded: ids asked for at random cannot grow it past HLS_ROWS.
    if (this.hlsRows.size >= HLS_ROWS) this.hlsRows.clear();
    this.hlsRows.set(liveId, { row, at: Date.now() });
    return row;
  }

  async setReplay(liveId: string, videoId: string): Promise<void> {
    await this.repo.update(liveId, { replayVideoId: videoId });
  }

  private access(row: LiveRow): string {
    return row.sessionId ? liveAccess(this.ctx.config.jwtSecret, row, row.sessionId) : 'pub';
  }

  /**
   * The live whose HLS file is asked for, if `access` opens it (`pub` while the live is public or
   * unlisted, its owner's key while private) and the session is its current one. Every viewer asks
   * every segment: the row is kept for HLS_ROW_MS, so a change of privacy or session shows within a
   * second without one query per request.
   */
  async hlsSession(access: string, liveId: string, sessionId: string): Promise<VisibleLiveRow> {
    const row = await this.cachedRow(liveId);
    const expected = row ? Buffer.from(liveAccess(this.ctx.config.jwtSecret, row, sessionId)) : undefined;
    const given = Buffer.from(access);
    if (!row || row.ownerSuspended || row.sessionId !== sessionId || !expected || expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw notFound(liveMessages.notFound);
    }
    return row;
  }
}
