import {
  playlistMessages,
  type CreatePlaylistBody,
  type PageQuery,
  type Playlist,
  type UpdatePlaylistBody,
} from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { conflict, forbidden, loginRequired, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { pageOf, pageWindow } from '../../lib/keyset.ts';
import { mediaUrls, type MediaUrls } from '../media-links/media-links.ts';
import { UsersRepository } from '../users/users.repository.ts';
import { VideoCardsRepository } from '../videos/video-cards.repository.ts';
import { toVideoCard } from '../videos/videos.presenter.ts';
import { toPlaylistSummary } from './playlists.presenter.ts';
import { PlaylistsRepository } from './playlists.repository.ts';

export class PlaylistsService {
  private readonly playlists: PlaylistsRepository;
  private readonly media: MediaUrls;

  constructor(private readonly ctx: AppContext) {
    this.playlists = new PlaylistsRepository(ctx.db);
    this.media = mediaUrls(ctx);
  }

  /** A channel's playlists by userName (public), else the viewer's own (login required). */
  async list(viewerId: string | null, q: PageQuery & { userName?: string; videoId?: string }) {
    let ownerId = viewerId;
    if (q.userName) {
      const owner = await new UsersRepository(this.ctx.db).findByUserName(q.userName);
      if (!owner) throw notFound('Channel not found');
      ownerId = owner.id;
    }
    if (!ownerId) throw loginRequired(playlistMessages.viewLoginRequired);
    const rows = await this.playlists.listByOwner(ownerId, viewerId, q.videoId ?? null, pageWindow(q));
    return pageOf(
      'playlists',
      rows.map((r) => toPlaylistSummary(this.media, r)),
      q,
      (p) => p._id,
    );
  }

  /** The playlist with the videos the viewer may see, in order. */
  async get(id: string, viewerId: string | null): Promise<Playlist> {
    const row = await this.playlists.findSummary(id, viewerId);
    if (!row) throw notFound(playlistMessages.notFound);
    const videos = await this.playlists.videosOf(id, viewerId);
    return { ...toPlaylistSummary(this.media, row), videos: videos.map((v) => toVideoCard(this.media, v)) };
  }

  async create(userId: string, body: CreatePlaylistBody): Promise<Playlist> {
    const id = newId();
    await this.ctx.db.transaction(async (tx) => {
      if (body.videoId) await this.visibleVideo(tx, body.videoId, userId);
      const repo = new PlaylistsRepository(tx);
      await repo.insert({ id, ownerId: userId, name: body.name, description: body.description ?? '' });
      if (body.videoId) await repo.addVideo(id, body.videoId);
    });
    return this.get(id, userId);
  }

  async update(userId: string, id: string, body: UpdatePlaylistBody): Promise<Playlist> {
    await this.change(userId, id, (repo) => repo.update(id, body));
    return this.get(id, userId);
  }

  async remove(userId: string, id: string): Promise<{ _id: string }> {
    await this.change(userId, id, (repo) => repo.delete(id));
    return { _id: id };
  }

  async addVideo(userId: string, id: string, videoId: string): Promise<Playlist> {
    await this.change(userId, id, async (repo, tx) => {
      await this.visibleVideo(tx, videoId, userId);
      if (!(await repo.addVideo(id, videoId))) throw conflict(playlistMessages.duplicate);
      await repo.update(id, {});
    });
    return this.get(id, userId);
  }

  async removeVideo(userId: string, id: string, videoId: string): Promise<Playlist> {
    await this.change(userId, id, async (repo) => {
      if (!(await repo.removeVideo(id, videoId))) throw notFound(playlistMessages.absent);
      await repo.update(id, {});
    });
    return this.get(id, userId);
  }

  /** Runs a change on the viewer's own playlist, under its row lock. */
  private async change(userId: string, id: string, apply: (repo: PlaylistsRepository, tx: Tx) => Promise<void>): Promise<void> {
    await this.ctx.db.transaction(async (tx) => {
      const repo = new PlaylistsRepository(tx);
      const playlist = await repo.lock(id);
      if (!playlist) throw notFound(playlistMessages.notFound);
      if (playlist.ownerId !== userId) throw forbidden('You can only change your own playlists');
      await apply(repo, tx);
    });
  }

  private async visibleVideo(tx: Tx, videoId: string, viewerId: string): Promise<void> {
    if (!(await new VideoCardsRepository(tx).isListed(videoId, viewerId))) throw notFound('Video not found');
  }
}
