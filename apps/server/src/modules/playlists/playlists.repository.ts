import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { playlists, playlistVideos, users, videos } from '../../db/schema.ts';
import { afterCursor, type PageWindow } from '../../lib/keyset.ts';
import { ownerColumns } from '../users/users.repository.ts';
import { videoCardColumns } from '../videos/video-cards.repository.ts';
import { publicMediaToken, videoListedTo } from '../../policy/visibility.ts';

export type PlaylistRow = typeof playlists.$inferSelect;

export class PlaylistsRepository {
  constructor(private readonly db: Executor) {}

  /**
   * Playlists with their owner and what a card shows: how many videos the viewer may see, the
   * first of them (play-all link and thumbnail), and whether `videoId` is in the list.
   */
  private selectSummaries(viewerId: string | null, videoId: string | null) {
    const visibleEntries = sql`FROM ${playlistVideos} JOIN ${videos} ON ${videos.id} = ${playlistVideos.videoId}
      WHERE ${playlistVideos.playlistId} = ${playlists.id} AND ${videoListedTo(viewerId)}`;
    const first = sql`${visibleEntries} ORDER BY ${playlistVideos.position} LIMIT 1`;
    return this.db
      .select({
        playlist: playlists,
        owner: ownerColumns,
        noOfVideos: sql<number>`(SELECT count(*)::int ${visibleEntries})`,
        firstVideoId: sql<string | null>`(SELECT ${videos.id} ${first})`,
        thumbnailKey: sql<string | null>`(SELECT ${videos.thumbnailKey} ${first})`,
        thumbnailPublicToken: sql<string | null>`(SELECT ${publicMediaToken(videos)} ${first})`,
        videoStatus: videoId
          ? sql<boolean>`EXISTS (SELECT 1 FROM ${playlistVideos} WHERE ${playlistVideos.playlistId} = ${playlists.id} AND ${playlistVideos.videoId} = ${videoId})`
          : sql<boolean>`false`,
      })
      .from(playlists)
      .innerJoin(users, eq(users.id, playlists.ownerId))
      .$dynamic();
  }

  async findSummary(id: string, viewerId: string | null, videoId: string | null = null) {
    const [row] = await this.selectSummaries(viewerId, videoId).where(eq(playlists.id, id)).limit(1);
    return row;
  }

  listByOwner(ownerId: string, viewerId: string | null, videoId: string | null, w: PageWindow) {
    return this.selectSummaries(viewerId, videoId)
      .where(and(eq(playlists.ownerId, ownerId), afterCursor(playlists, playlists.updatedAt, playlists.id, w.after)))
      .orderBy(desc(playlists.updatedAt), desc(playlists.id))
      .limit(w.limit + 1)
      .offset(w.offset);
  }

  /** The playlist's videos the viewer may see, in playlist order. */
  videosOf(playlistId: string, viewerId: string | null) {
    return this.db
      .select(videoCardColumns)
      .from(playlistVideos)
      .innerJoin(videos, eq(videos.id, playlistVideos.videoId))
      .innerJoin(users, eq(users.id, videos.ownerId))
      .where(and(eq(playlistVideos.playlistId, playlistId), videoListedTo(viewerId)))
      .orderBy(asc(playlistVideos.position));
  }

  /** Locks the playlist row: writes to one playlist run one at a time, so positions stay unique. */
  async lock(id: string): Promise<PlaylistRow | undefined> {
    const [row] = await this.db.select().from(playlists).where(eq(playlists.id, id)).for('no key update');
    return row;
  }

  async insert(row: typeof playlists.$inferInsert): Promise<void> {
    await this.db.insert(playlists).values(row);
  }

  async update(id: string, set: { name?: string; description?: string }): Promise<void> {
    await this.db
      .update(playlists)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(playlists.id, id));
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(playlists).where(eq(playlists.id, id));
  }

  /** Appends the video; false when it is already in the playlist. */
  async addVideo(playlistId: string, videoId: string): Promise<boolean> {
    const rows = await queryRows(
      this.db,
      sql`INSERT INTO playlist_videos (playlist_id, video_id, position)
          SELECT ${playlistId}, ${videoId}, coalesce(max(position), 0) + 1 FROM playlist_videos WHERE playlist_id = ${playlistId}
          ON CONFLICT DO NOTHING RETURNING video_id`,
    );
    return rows.length > 0;
  }

  /** False when the video was not in the playlist. */
  async removeVideo(playlistId: string, videoId: string): Promise<boolean> {
    const rows = await this.db
      .delete(playlistVideos)
      .where(and(eq(playlistVideos.playlistId, playlistId), eq(playlistVideos.videoId, videoId)))
      .returning({ videoId: playlistVideos.videoId });
    return rows.length > 0;
  }
}
