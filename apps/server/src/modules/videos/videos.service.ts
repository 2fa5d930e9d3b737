import path from 'node:path';
import { announceVideo, videoChanged } from './announce.ts';
import { videoMessages, type PlaylistSummary, type VideoEditFields, type VideoListQuery, type VideoSearchPage } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { forbidden, gone, notFound } from '../../lib/errors.ts';
import { decodeCursor, toPage, type CursorValue, type PageInfo } from '../../lib/pagination.ts';
import { JobsRepository } from '../../jobs/jobs.repository.ts';
import { videoPrefixes } from '../../storage/media-keys.ts';
import { mediaUrls, type MediaUrls } from '../media-links/media-links.ts';
import { toChannel, toOwner } from '../users/users.presenter.ts';
import { UsersRepository } from '../users/users.repository.ts';
import { SearchRepository, type PlaylistHit } from './search.repository.ts';
import { replaceFile } from '../../storage/images.ts';
import { prepareThumbnail, storeThumbnail } from './thumbnail.ts';
import { privacyChange, schedulePublication, type PrivacyChange } from './privacy.ts';
import { toVideo } from './videos.presenter.ts';
import { VideosRepository, type VideoSort, type VideoTableRow } from './videos.repository.ts';
import { StorageUsageRepository } from '../quota/storage-usage.repository.ts';
import { toIso } from '../../lib/time.ts';

export interface PageArgs {
  page: number;
  limit: number;
  cursor?: string;
}

/** A page of repository rows (limit + 1), presented item by item. */
export function mappedPage<K extends string, R, T>(
  key: K,
  rows: R[],
  p: PageArgs,
  cursorOf: (r: R) => CursorValue[],
  present: (r: R) => T,
): Record<K, T[]> & PageInfo {
  const page = toPage(key, rows, { page: p.page, limit: p.limit, cursorOf });
  return { ...page, [key]: page[key].map(present) } as Record<K, T[]> & PageInfo;
}

export const pageWindow = (p: PageArgs) => ({
  limit: p.limit,
  offset: (p.page - 1) * p.limit,
  cursor: p.cursor ? decodeCursor(p.cursor, 2) : undefined,
});

export class VideosService {
  readonly videos: VideosRepository;
  private readonly search: SearchRepository;
  private readonly media: MediaUrls;

  constructor(private readonly ctx: AppContext) {
    this.videos = new VideosRepository(ctx.db);
    this.search = new SearchRepository(ctx.db);
    this.media = mediaUrls(ctx);
  }

  /**
   * GET /videos: home (by views), search (relevance), or channel / playlist search by `type`;
   * the items are at `data` whatever the type (spec §7's "data list").
   */
  async list(q: VideoListQuery, viewerId: string | null): Promise<VideoSearchPage> {
    const window = pageWindow(q);
    if (q.type === 'channel') {
      const rows = await this.search.channels({ ...window, query: q.query || undefined, viewerId });
      return mappedPage('data', rows, q, (r) => [r.rank, r.id], (r) => toChannel(this.ctx.storage, r, viewerId));
    }
    if (q.type === 'playlist') {
      const rows = await this.search.playlists({ ...window, query: q.query || undefined, viewerId });
      return mappedPage('data', rows, q, (r) => [r.rank, r.id], (r) => this.playlist(r));
    }
    const query = q.query || undefined;
    const sort: VideoSort = q.sortBy ?? (query ? 'relevance' : 'views');
    const { rows, cursorOf } = await this.videos.list({
      ...window,
      viewerId,
      query,
      corrected: query ? await this.search.corrected(query) : undefined,
      sort: sort === 'relevance' && !query ? 'views' : sort,
      duration: q.duration,
      uploadDate: q.uploadDate,
    });
    return mappedPage('data', rows, q, cursorOf, (r) => toVideo(this.media, r));
  }

  /** A channel's videos: all of them for its owner, published and ready ones for everyone else. */
  async byChannel(userName: string, viewerId: string | null, p: PageArgs) {
    const owner = await new UsersRepository(this.ctx.db).findByUserName(userName.replace(/^@/, '').toLowerCase());
    if (!owner) throw notFound('Channel not found');
    return this.ownerVideos(owner.id, viewerId, p);
  }

  async ownerVideos(ownerId: string, viewerId: string | null, p: PageArgs) {
    const { rows, cursorOf } = await this.videos.list({ ...pageWindow(p), viewerId, ownerId, sort: 'uploadDate' });
    return mappedPage('videos', rows, p, cursorOf, (r) => toVideo(this.media, r));
  }

  /** `staff`: the viewer may open private videos (permissions' `viewPrivate`). */
  async get(id: string, viewerId: string | null, staff = false) {
    const row = await this.videos.findVisible(id, viewerId, staff);
    if (!row) throw notFound(videoMessages.notFound);
    return toVideo(this.media, row);
  }

  /** GET videos/{id}: as `get`, but a video the moderators took down says so (410) where a visitor could have opened it. */
  async open(id: string, viewerId: string | null, staff: boolean) {
    const row = await this.videos.findVisible(id, viewerId, staff);
    if (row) return toVideo(this.media, row);
    throw (await this.videos.isRemovedByModerators(id)) ? gone(videoMessages.removed) : notFound(videoMessages.notFound);
  }

  async similar(id: string, viewerId: string | null, limit: number) {
    await this.get(id, viewerId);
    const video = (await this.videos.findRow(id))!;
    const rows = await this.videos.similar(video, viewerId, limit);
    return rows.map((r) => toVideo(this.media, r));
  }

  /** Counts the view (once per viewer per hour) and, for a logged-in viewer, records history. */
  async view(id: string, viewer: { id: string } | null, ip: string, position: number | undefined) {
    await this.get(id, viewer?.id ?? null);
    const result = await this.ctx.db.transaction(async (tx) => {
      const videos = new VideosRepository(tx);
      const counted = await videos.countView(id, viewer ? `u:${viewer.id}` : `ip:${ip}`);
      if (viewer) await videos.recordWatch(viewer.id, id, position);
      return counted;
    });
    return result;
  }

  /** The row, if it exists (404) and belongs to the viewer (403). */
  async owned(id: string, viewerId: string): Promise<VideoTableRow> {
    const row = await this.videos.findRow(id);
    if (!row) throw notFound(videoMessages.notFound);
    if (row.ownerId !== viewerId) throw forbidden(videoMessages.notOwner);
    return row;
  }

  /**
   * The progressive mp4 (at most 720p) of a video the viewer may see: players without HLS (spec
   * clients play `videoFile.publicId`). The same visibility rule as the video itself. As a
   * `download`, only for the owner or when the owner allows downloads (403).
   */
  async progressive(id: string, viewerId: string | null, download: boolean): Promise<{ key: string; filename: string }> {
    const visible = await this.videos.findVisible(id, viewerId);
    if (!visible) throw notFound(videoMessages.notFound);
    if (download && !visible.downloads_enabled && visible.owner_id !== viewerId) throw forbidden(videoMessages.downloadsOff);
    const row = await this.videos.findRow(id);
    if (!row?.progressiveKey) throw notFound(videoMessages.progressiveMissing);
    return { key: row.progressiveKey, filename: `${row.title}.mp4` };
  }

  /** The poster (the thumbnail) of a video the viewer may see, by the same rule as its mp4. */
  async poster(id: string, viewerId: string | null): Promise<{ key: string }> {
    const visible = await this.videos.findVisible(id, viewerId);
    if (!visible) throw notFound(videoMessages.notFound);
    if (!visible.thumbnail_key) throw notFound(videoMessages.posterMissing);
    return { key: visible.thumbnail_key };
  }

  /** The uploaded original, for its owner only (404 without the video, 403 for anyone else). */

  async original(id: string, viewerId: string): Promise<{ key: string; filename: string }> {
    const row = await this.videos.findRow(id);
    if (!row) throw notFound(videoMessages.notFound);
    if (row.ownerId !== viewerId) throw forbidden(videoMessages.originalOwnerOnly);
    if (!row.sourceKey) throw notFound(videoMessages.originalGone);
    return { key: row.sourceKey, filename: `${row.title}${path.extname(row.sourceKey)}` };
  }

  async update(id: string, viewerId: string, change: VideoEditFields & { imagePath?: string }) {
    const row = await this.owned(id, viewerId);
    const thumbnail = change.imagePath ? await prepareThumbnail(change.imagePath) : undefined;
    const set: Partial<VideoTableRow> = {};
    if (change.title !== undefined && change.title !== row.title) set.title = change.title;
    if (change.description !== undefined && change.description !== row.description) set.description = change.description;
    if (change.commentsEnabled !== undefined && change.commentsEnabled !== row.commentsEnabled) set.commentsEnabled = change.commentsEnabled;
    if (change.downloadsEnabled !== undefined && change.downloadsEnabled !== row.downloadsEnabled) set.downloadsEnabled = change.downloadsEnabled;
    const privacy = privacyChange(change, row.privacy);
    if (privacy) await this.setPrivacy(row, privacy, set);
    if (thumbnail) {
      const thumbnailKey = await storeThumbnail(this.ctx.storage, id, thumbnail);
      const updated = await replaceFile(this.ctx.storage, this.ctx.db, thumbnailKey, async (tx) => {
        const videos = new VideosRepository(tx);
        const locked = await videos.lock(id);
        if (!locked) return undefined;
        await videos.update(id, { ...set, thumbnailKey, thumbnailBytes: thumbnail.body.length });
        await new StorageUsageRepository(tx).recount(locked.ownerId);
        await videoChanged(tx, locked);
        return { oldKey: locked.thumbnailKey, result: true };
      });
      if (!updated) throw notFound(videoMessages.notFound);
    } else if (!privacy && Object.keys(set).length > 0) {
      await this.ctx.db.transaction(async (tx) => {
        await new VideosRepository(tx).update(id, set);
        await videoChanged(tx, row);
      });
    }
    return this.get(id, viewerId);
  }

  /** The spec's publish switch: true is public, false is private (either drops a schedule); without a value it flips. */
  async publish(id: string, viewerId: string, isPublished: boolean | undefined) {
    const row = await this.owned(id, viewerId);
    const publish = isPublished ?? row.privacy !== 'public';
    await this.setPrivacy(row, { privacy: publish ? 'public' : 'private', publishAt: null });
    return this.get(id, viewerId);
  }

  /** Privacy, schedule and the other edits in `set` in one transaction with the publish job. */
  private async setPrivacy(row: VideoTableRow, change: PrivacyChange, set: Partial<VideoTableRow> = {}): Promise<void> {
    await this.ctx.db.transaction(async (tx) => {
      const wasListed = await new VideosRepository(tx).isListed(row.id);
      await new VideosRepository(tx).setPrivacy(row.id, change, row.privacy, set);
      await schedulePublication(tx, row, change.publishAt);
      // A first publication is told by videoPublished (federation reads both), anything else by videoChanged.
      if (!(await announceVideo(tx, row))) await videoChanged(tx, row, wasListed);
    });
  }

  /**
   * Rows cascade (comments, likes, playlist entries, history, views); queued jobs and every file go too.
   * `within` joins the transaction (a moderator's deletion writes its log there).
   */
  async delete(id: string, viewerId: string, within?: (tx: Executor) => Promise<void>) {
    const row = await this.owned(id, viewerId);
    await this.ctx.db.transaction(async (tx) => {
      const wasListed = await new VideosRepository(tx).isListed(id);
      await new JobsRepository(tx).deleteForVideo(id);
      await new VideosRepository(tx).delete(id, viewerId);
      await new StorageUsageRepository(tx).recount(viewerId);
      await videoChanged(tx, row, wasListed);
      await within?.(tx);
    });
    for (const prefix of videoPrefixes(id)) await this.ctx.storage.deletePrefix(prefix);
  }

  /** A playlist search hit in the shape of every other playlist summary (no video asked about: videoStatus false). */
  private playlist(r: PlaylistHit): PlaylistSummary {
    return {
      _id: r.id,
      name: r.name,
      description: r.description,
      noOfVideos: r.no_of_videos,
      videoId: r.first_video_id,
      thumbnail: this.media.fileRef(r.first_video_id, r.first_public_token, r.first_thumbnail_key),
      owner: toOwner(this.ctx.storage, { id: r.owner_id, userName: r.owner_user_name, fullName: r.owner_full_name, avatarKey: r.owner_avatar_key }),
      videoStatus: false,
      createdAt: toIso(r.created_at),
      updatedAt: toIso(r.updated_at),
    };
  }
}
