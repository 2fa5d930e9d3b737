import { and, count, desc, eq, getTableColumns, gt, not, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { lives, liveViewers, videos } from '../../db/schema.ts';
import { accountSuspended } from '../../policy/content-state.ts';
import { videoVisibleTo } from '../../policy/visibility.ts';

export type LiveRow = typeof lives.$inferSelect;
export type NewLive = typeof lives.$inferInsert;
/** A live as the visibility rule reads it: with whether its owner is suspended now. */
export type VisibleLiveRow = LiveRow & { ownerSuspended: boolean };

/** A live's columns and whether its owner is suspended now (their lives are then hidden, and cannot go on air). */
const withOwnerState = { ...getTableColumns(lives), ownerSuspended: sql<boolean>`${accountSuspended(lives.ownerId)}` };

/** All the SQL of lives. */
export class LivesRepository {
  constructor(private readonly db: Executor) {}

  async insert(row: NewLive): Promise<LiveRow> {
    const [created] = await this.db.insert(lives).values(row).returning();
    return created!;
  }

  async find(id: string): Promise<VisibleLiveRow | undefined> {
    const [row] = await this.db
      .select(withOwnerState)
      .from(lives)
      .where(eq(lives.id, id))
      .limit(1);
    return row;
  }

  /** The row locked for the rest of the transaction (a session starting or ending). */
  async lock(id: string): Promise<VisibleLiveRow | undefined> {
    const [row] = await this.db.select(withOwnerState).from(lives).where(eq(lives.id, id)).for('update', { of: lives }).limit(1);
    return row;
  }

  listByOwner(ownerId: string, limit: number, offset: number): Promise<LiveRow[]> {
    return this.db.select().from(lives).where(eq(lives.ownerId, ownerId)).orderBy(desc(lives.createdAt), desc(lives.id)).limit(limit).offset(offset);
  }

  /** Whether the viewer may open the video (a live's replay: private until its owner publishes it). */
  async videoVisible(videoId: string, viewerId: string | null): Promise<boolean> {
    const [row] = await this.db.select({ id: videos.id }).from(videos).where(and(eq(videos.id, videoId), videoVisibleTo(viewerId))).limit(1);
    return row !== undefined;
  }

  async countByOwner(ownerId: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(lives).where(eq(lives.ownerId, ownerId));
    return row?.n ?? 0;
  }

  async update(id: string, changes: Partial<NewLive>): Promise<LiveRow | undefined> {
    const [row] = await this.db.update(lives).set(changes).where(eq(lives.id, id)).returning();
    return row;
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(lives).where(eq(lives.id, id));
  }

  /** Lives on air (their ingest alive within staleMs): on the whole instance, and of one owner. */
  async onAir(ownerId: string, staleMs: number): Promise<{ all: number; owner: number }> {
    const [row] = await this.db
      .select({ all: count(), owner: sql<number>`count(*) FILTER (WHERE ${lives.ownerId} = ${ownerId})`.mapWith(Number) })
      .from(lives)
      .where(and(eq(lives.state, 'live'), gt(lives.heartbeatAt, new Date(Date.now() - staleMs))));
    return { all: row?.all ?? 0, owner: row?.owner ?? 0 };
  }

  /** Serialises session starts on the instance, so two workers cannot both take the last free place. */
  async lockSessionStarts(): Promise<void> {
    await this.db.execute(sql`SELECT pg_advisory_xact_lock(3600036)`);
  }

  /** A viewer's player asked for the live's playlist. */
  async sawViewer(liveId: string, viewer: string): Promise<void> {
    await this.db
      .insert(liveViewers)
      .values({ liveId, viewer })
      .onConflictDoUpdate({ target: [liveViewers.liveId, liveViewers.viewer], set: { seenAt: sql`now()` } });
  }

  /** Viewers whose player asked within the last `seconds`. */
  async viewers(liveId: string, seconds: number): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(liveViewers)
      .where(and(eq(liveViewers.liveId, liveId), gt(liveViewers.seenAt, sql`now() - make_interval(secs => ${seconds})`)));
    return row?.n ?? 0;
  }

  /** Forgets viewers not seen for `seconds` (all of them when the session ends: 0). */
  async forgetViewers(liveId: string, seconds: number): Promise<void> {
    await this.db.delete(liveViewers).where(and(eq(liveViewers.liveId, liveId), sql`${liveViewers.seenAt} <= now() - make_interval(secs => ${seconds})`));
  }

  /** The ingest holding the session is alive. */
  /** The session is alive; false when it may not go on (no longer the current one, the live or its owner gone, the owner suspended). */
  async heartbeat(id: string, sessionId: string): Promise<boolean> {
    const rows = await this.db
      .update(lives)
      .set({ heartbeatAt: new Date() })
      .where(and(eq(lives.id, id), eq(lives.sessionId, sessionId), eq(lives.state, 'live'), not(accountSuspended(lives.ownerId))))
      .returning({ id: lives.id });
    return rows.length > 0;
  }

  /**
   * Ends a session only if it is still the current one (a late end after a newer start changes
   * nothing): a permanent live (as it is now, not as the session started) or one that never aired
   * waits for the next session; a one-off live that aired has ended.
   */
  async endSession(id: string, sessionId: string, aired: boolean): Promise<LiveRow | undefined> {
    const [row] = await this.db
      .update(lives)
      .set({ state: sql`CASE WHEN ${lives.permanent} OR NOT ${aired} THEN 'waiting' ELSE 'ended' END`, endedAt: new Date() })
      .where(and(eq(lives.id, id), eq(lives.sessionId, sessionId), eq(lives.state, 'live')))
      .returning();
    return row;
  }

}
