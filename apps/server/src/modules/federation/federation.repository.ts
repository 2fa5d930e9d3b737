import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import {
  channelRemoteBlocks,
  comments,
  federatedComments,
  federatedLocalComments,
  federationFlags,
  federatedVideos,
  federationAllowedHosts,
  federationBlocks,
  federationHosts,
  federationKeys,
  federationPolicy,
  inboxSeen,
  remoteActors,
  remoteFollowers,
  remoteFollows,
  remoteVideoRates,
  remoteVideos,
  remoteShares,
  remoteVideoUserRates,
  tweets,
  users,
  videos,
} from '../../db/schema.ts';
import { accountVisibleTo } from '../../policy/content-state.ts';
import { commentShownTo, tweetShownTo, videoListedTo, videoVisibleTo } from '../../policy/visibility.ts';

export type RemoteActorRow = typeof remoteActors.$inferSelect;
export type RemoteActorInput = Omit<typeof remoteActors.$inferInsert, 'createdAt'>;
export type RemoteVideoInput = Omit<typeof remoteVideos.$inferInsert, 'receivedAt'>;
export type KeyRow = typeof federationKeys.$inferSelect;

const localChannelColumns = {
  id: users.id,
  userName: users.userName,
  fullName: users.fullName,
  avatarKey: users.avatarKey,
  coverKey: users.coverKey,
  subscriberCount: users.subscriberCount,
  createdAt: users.createdAt,
};
export interface LocalChannel {
  id: string;
  userName: string;
  fullName: string;
  avatarKey: string | null;
  coverKey: string | null;
  subscriberCount: number;
  createdAt: Date;
}

export class FederationRepository {
  constructor(private readonly db: Executor) {}

  // --- local actors -------------------------------------------------------------------------

  async key(id: string): Promise<KeyRow | undefined> {
    const [row] = await this.db.select().from(federationKeys).where(eq(federationKeys.id, id));
    return row;
  }

  /** Stores the pair unless another request stored one first; the stored one wins. */
  async insertKey(row: typeof federationKeys.$inferInsert): Promise<KeyRow> {
    await this.db.insert(federationKeys).values(row).onConflictDoNothing();
    return (await this.key(row.id))!;
  }

  /** A channel anyone may see (not suspended or deleted), by id or user name. */
  async localChannel(by: { id: string } | { userName: string }): Promise<LocalChannel | undefined> {
    const where = 'id' in by ? eq(users.id, by.id) : sql`lower(${users.userName}) = lower(${by.userName})`;
    const [row] = await this.db.select(localChannelColumns).from(users).where(and(where, accountVisibleTo(users.id, null)));
    return row;
  }

  /** NodeInfo's usage: accounts in good standing and listed videos. */
  async instanceCounts(): Promise<{ users: number; videos: number }> {
    const [u] = await this.db.select({ n: sql<number>`count(*)::int` }).from(users).where(accountVisibleTo(users.id, null));
    const [v] = await this.db.select({ n: sql<number>`count(*)::int` }).from(videos).where(videoListedTo(null));
    return { users: u?.n ?? 0, videos: v?.n ?? 0 };
  }

  async countFollowing(userId: string): Promise<number> {
    const [row] = await this.db.select({ n: sql<number>`count(*)::int` }).from(remoteFollows).where(and(eq(remoteFollows.userId, userId), eq(remoteFollows.state, 'accepted')));
    return row?.n ?? 0;
  }

  async countListedVideos(ownerId: string): Promise<number> {
    const [row] = await this.db.select({ n: sql<number>`count(*)::int` }).from(videos).where(and(eq(videos.ownerId, ownerId), videoListedTo(null)));
    return row?.n ?? 0;
  }

  async latestListedVideoIds(ownerId: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ id: videos.id })
      .from(videos)
      .where(and(eq(videos.ownerId, ownerId), videoListedTo(null)))
      .orderBy(desc(videos.announcedAt), desc(videos.id))
      .limit(limit);
    return rows.map((r) => r.id);
  }

  /** The video while it is listed (public, ready, not taken down, owner in good standing), with its channel. */
  async listedVideo(id: string) {
    const [row] = await this.db
      .select({ video: videos, channel: localChannelColumns })
      .from(videos)
      .innerJoin(users, eq(users.id, videos.ownerId))
      .where(and(eq(videos.id, id), videoListedTo(null)));
    return row;
  }

  /** Whether the viewer may open the local video (the visibility policy's direct rule). */
  async videoVisible(id: string, viewerId: string | null): Promise<boolean> {
    const [row] = await this.db.select({ id: videos.id }).from(videos).where(and(eq(videos.id, id), videoVisibleTo(viewerId)));
    return !!row;
  }

  /** A tweet anyone may see (published, not taken down, its author in good standing). */
  async shownTweet(id: string) {
    const [row] = await this.db
      .select({ id: tweets.id, ownerId: tweets.ownerId, content: tweets.content, createdAt: tweets.createdAt })
      .from(tweets)
      .where(and(eq(tweets.id, id), tweetShownTo(null, false)));
    return row;
  }

  // --- what we sent -------------------------------------------------------------------------

  async federatedVideo(videoId: string) {
    const [row] = await this.db.select().from(federatedVideos).where(eq(federatedVideos.videoId, videoId));
    return row;
  }

  /**
   * A local comment anyone may see (published, not taken down) on a video that is listed, has its
   * comments on, and went to other servers: what federation sends as a Note.
   */
  async sendableComment(id: string) {
    const [row] = await this.db
      .select({ id: comments.id, authorId: comments.ownerId, parentId: comments.parentId, videoId: videos.id, channelId: videos.ownerId, content: comments.content, createdAt: comments.createdAt })
      .from(comments)
      .innerJoin(videos, eq(videos.id, comments.videoId))
      .innerJoin(federatedVideos, eq(federatedVideos.videoId, videos.id))
      .where(and(eq(comments.id, id), commentShownTo(null, false), videoListedTo(null), eq(videos.commentsEnabled, true)));
    return row;
  }

  /** The video a local comment is on (null for a tweet's or a live's). */
  async commentVideo(id: string): Promise<string | null> {
    const [row] = await this.db.select({ videoId: comments.videoId }).from(comments).where(eq(comments.id, id));
    return row?.videoId ?? null;
  }

  /** The local comments of a video whose Note went out, by id (all of them, or those given). */
  sentComments(videoId: string, commentIds?: string[]) {
    const which = commentIds ? inArray(federatedLocalComments.commentId, commentIds) : undefined;
    return this.db.select().from(federatedLocalComments).where(and(eq(federatedLocalComments.videoId, videoId), which));
  }

  /** Those of a video's sent comments that no longer exist (deleted with an ancestor, or alone). */
  async goneSentComments(videoId: string) {
    return this.db
      .select({ sent: federatedLocalComments })
      .from(federatedLocalComments)
      .leftJoin(comments, eq(comments.id, federatedLocalComments.commentId))
      .where(and(eq(federatedLocalComments.videoId, videoId), sql`${comments.id} IS NULL`))
      .then((rows) => rows.map((r) => r.sent));
  }

  async markCommentSent(row: { commentId: string; videoId: string; channelId: string; authorId: string }): Promise<void> {
    await this.db.insert(federatedLocalComments).values(row).onConflictDoUpdate({ target: federatedLocalComments.commentId, set: { sentAt: sql`now()` } });
  }

  async unmarkCommentSent(commentId: string): Promise<void> {
    await this.db.delete(federatedLocalComments).where(eq(federatedLocalComments.commentId, commentId));
  }

  async markFederated(videoId: string, ownerId: string): Promise<void> {
    await this.db.insert(federatedVideos).values({ videoId, ownerId }).onConflictDoUpdate({ target: federatedVideos.videoId, set: { sentAt: sql`now()` } });
  }

  async unmarkFederated(videoId: string): Promise<void> {
    await this.db.delete(federatedVideos).where(eq(federatedVideos.videoId, videoId));
  }

  // --- remote actors ------------------------------------------------------------------------

  async remoteActorByUri(uri: string): Promise<RemoteActorRow | undefined> {
    const [row] = await this.db.select().from(remoteActors).where(eq(remoteActors.uri, uri));
    return row;
  }

  async remoteActor(id: string): Promise<RemoteActorRow | undefined> {
    const [row] = await this.db.select().from(remoteActors).where(eq(remoteActors.id, id));
    return row;
  }

  async remoteActorByHandle(name: string, host: string): Promise<RemoteActorRow | undefined> {
    const [row] = await this.db
      .select()
      .from(remoteActors)
      .where(and(sql`lower(${remoteActors.preferredUsername}) = lower(${name})`, sql`lower(${remoteActors.host}) = lower(${host})`))
      .limit(1);
    return row;
  }

  async remoteActorByKeyId(keyId: string): Promise<RemoteActorRow | undefined> {
    const [row] = await this.db.select().from(remoteActors).where(eq(remoteActors.publicKeyId, keyId));
    return row;
  }

  /** Inserts or refreshes the actor (by its URI); the id stays the first one given. */
  async upsertRemoteActor(a: RemoteActorInput): Promise<RemoteActorRow> {
    const { id: _id, uri: _uri, ...fields } = a;
    const [row] = await this.db
      .insert(remoteActors)
      .values(a)
      .onConflictDoUpdate({ target: remoteActors.uri, set: { ...fields, fetchedAt: sql`now()` } })
      .returning();
    return row!;
  }

  // --- remote followers of local channels ---------------------------------------------------

  /** True when the follower is new. */
  async addFollower(channelId: string, actorId: string, followId: string): Promise<boolean> {
    const rows = await this.db.insert(remoteFollowers).values({ channelId, actorId, followId }).onConflictDoNothing().returning({ actorId: remoteFollowers.actorId });
    return rows.length > 0;
  }

  /** True when there was one to remove. */
  async removeFollower(channelId: string, actorId: string): Promise<boolean> {
    const rows = await this.db
      .delete(remoteFollowers)
      .where(and(eq(remoteFollowers.channelId, channelId), eq(remoteFollowers.actorId, actorId)))
      .returning({ actorId: remoteFollowers.actorId });
    return rows.length > 0;
  }

  async followerChannelByFollowId(actorId: string, followId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ channelId: remoteFollowers.channelId })
      .from(remoteFollowers)
      .where(and(eq(remoteFollowers.actorId, actorId), eq(remoteFollowers.followId, followId)));
    return row?.channelId;
  }

  async bumpSubscribers(channelId: string, delta: 1 | -1): Promise<void> {
    await this.db
      .update(users)
      .set({ subscriberCount: sql`greatest(0, ${users.subscriberCount} + ${delta})` })
      .where(eq(users.id, channelId));
  }

  async countFollowers(channelId: string): Promise<number> {
    const [row] = await this.db.select({ n: sql<number>`count(*)::int` }).from(remoteFollowers).where(eq(remoteFollowers.channelId, channelId));
    return row?.n ?? 0;
  }

  /** Where to deliver the channel's public activity: one inbox per remote server that has a shared one. */
  async followerInboxes(channelId: string): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ inbox: sql<string>`coalesce(${remoteActors.sharedInbox}, ${remoteActors.inbox})` })
      .from(remoteFollowers)
      .innerJoin(remoteActors, eq(remoteActors.id, remoteFollowers.actorId))
      .where(eq(remoteFollowers.channelId, channelId));
    return rows.map((r) => r.inbox);
  }

  // --- local users following remote channels ------------------------------------------------

  async follow(userId: string, actorId: string, followId: string): Promise<{ followId: string; state: 'pending' | 'accepted' }> {
    await this.db.insert(remoteFollows).values({ userId, actorId, followId }).onConflictDoNothing();
    const [row] = await this.db
      .select({ followId: remoteFollows.followId, state: remoteFollows.state })
      .from(remoteFollows)
      .where(and(eq(remoteFollows.userId, userId), eq(remoteFollows.actorId, actorId)));
    return row!;
  }

  async followState(userId: string, actorId: string): Promise<'none' | 'pending' | 'accepted'> {
    const [row] = await this.db
      .select({ state: remoteFollows.state })
      .from(remoteFollows)
      .where(and(eq(remoteFollows.userId, userId), eq(remoteFollows.actorId, actorId)));
    return row?.state ?? 'none';
  }

  async unfollow(userId: string, actorId: string): Promise<string | undefined> {
    const [row] = await this.db
      .delete(remoteFollows)
      .where(and(eq(remoteFollows.userId, userId), eq(remoteFollows.actorId, actorId)))
      .returning({ followId: remoteFollows.followId });
    return row?.followId;
  }

  /** The Follow the actor answers (only the followed actor may accept or reject it). */
  async setFollowState(actorId: string, followId: string, state: 'accepted' | null): Promise<boolean> {
    const where = and(eq(remoteFollows.actorId, actorId), eq(remoteFollows.followId, followId));
    const rows = state
      ? await this.db.update(remoteFollows).set({ state }).where(where).returning({ userId: remoteFollows.userId })
      : await this.db.delete(remoteFollows).where(where).returning({ userId: remoteFollows.userId });
    return rows.length > 0;
  }

  /** The first of these actor URIs that some local user follows (its id), if any. */
  async followedActorAmong(uris: string[]): Promise<string | undefined> {
    const rows = await this.db
      .selectDistinct({ id: remoteActors.id, uri: remoteActors.uri })
      .from(remoteActors)
      .innerJoin(remoteFollows, eq(remoteFollows.actorId, remoteActors.id))
      .where(inArray(remoteActors.uri, uris));
    return uris.map((u) => rows.find((r) => r.uri === u)?.id).find(Boolean);
  }


  // --- remote videos ------------------------------------------------------------------------

  async upsertRemoteVideo(v: RemoteVideoInput): Promise<void> {
    const { id: _id, uri: _uri, actorId: _actor, ...fields } = v;
    await this.db
      .insert(remoteVideos)
      .values(v)
      .onConflictDoUpdate({ target: remoteVideos.uri, set: fields, where: eq(remoteVideos.actorId, v.actorId) });
  }

  /** Deletes a remote video at the word of an actor of the server it lives on (its channel or the account that sent it). */
  async deleteRemoteVideo(uri: string, senderHost: string): Promise<boolean> {
    const rows = await this.db
      .delete(remoteVideos)
      .where(and(eq(remoteVideos.uri, uri), sql`${remoteVideos.actorId} IN (SELECT id FROM remote_actors WHERE host = ${senderHost})`))
      .returning({ id: remoteVideos.id });
    return rows.length > 0;
  }

  /** Videos of the remote channels the user follows (accepted follows), newest first. */
  remoteFeed(userId: string, limit: number, offset: number) {
    return this.db
      .select({ video: remoteVideos, actor: remoteActors })
      .from(remoteFollows)
      .innerJoin(remoteActors, eq(remoteActors.id, remoteFollows.actorId))
      .innerJoin(remoteVideos, eq(remoteVideos.actorId, remoteActors.id))
      .where(and(eq(remoteFollows.userId, userId), eq(remoteFollows.state, 'accepted')))
      .orderBy(desc(remoteVideos.publishedAt), desc(remoteVideos.id))
      .limit(limit)
      .offset(offset);
  }

  /**
   * Distinct http(s) origins of stored remote media (HLS, thumbnails, avatars): at most 500, for the
   * CSP. Only plain ones (host, port): a character the header does not allow in a source (a `;`, a
   * `,`, a space) in one stored address would break every page's headers or widen the policy.
   */
  async mediaOrigins(): Promise<string[]> {
    const rows = await queryRows<{ origin: string }>(
      this.db,
      sql`SELECT DISTINCT origin FROM (
            SELECT substring(hls_url FROM '^(https?://[^/?#]+)') AS origin FROM remote_videos
            UNION SELECT substring(thumbnail_url FROM '^(https?://[^/?#]+)') FROM remote_videos
            UNION SELECT substring(icon_url FROM '^(https?://[^/?#]+)') FROM remote_actors) o
          WHERE origin ~ '^https?://([a-z0-9-]+[.])*[a-z0-9-]+(:[0-9]{1,5})?$' ORDER BY origin LIMIT 500`,
    );
    return rows.map((r) => r.origin);
  }

  remoteChannelVideos(actorId: string, limit: number) {
    return this.db
      .select({ video: remoteVideos, actor: remoteActors })
      .from(remoteVideos)
      .innerJoin(remoteActors, eq(remoteActors.id, remoteVideos.actorId))
      .where(eq(remoteVideos.actorId, actorId))
      .orderBy(desc(remoteVideos.publishedAt), desc(remoteVideos.id))
      .limit(limit);
  }

  // --- inbox and delivery bookkeeping -------------------------------------------------------

  /** False when the activity id was already handled (a replay). */
  async markSeen(activityId: string): Promise<boolean> {
    const rows = await this.db.insert(inboxSeen).values({ activityId }).onConflictDoNothing().returning({ id: inboxSeen.activityId });
    return rows.length > 0;
  }

  async pruneSeen(days: number): Promise<void> {
    await this.db.delete(inboxSeen).where(sql`${inboxSeen.receivedAt} < now() - make_interval(days => ${days})`);
  }

  /**
   * A deleted account's key (detached, migration 1047) once its Delete is out: no `accountDeleted`
   * event naming it waits for its fan-out, and no delivery it signs waits.
   */
  async pruneDetachedKeys(deliverQueue: string): Promise<void> {
    await this.db.execute(sql`
      DELETE FROM federation_keys k WHERE k.user_id IS NULL AND k.id <> 'instance'
        AND NOT EXISTS (SELECT 1 FROM events e WHERE e.kind = 'accountDeleted' AND e.payload->>'userId' = k.id)
        AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.queue = ${deliverQueue} AND j.status IN ('queued', 'running') AND j.payload->'signer'->>'userId' = k.id)`);
  }

  async hostPausedUntil(host: string): Promise<Date | null> {
    const [row] = await this.db.select({ until: federationHosts.pausedUntil }).from(federationHosts).where(eq(federationHosts.host, host));
    return row?.until && row.until > new Date() ? row.until : null;
  }

  /** Counts a failed delivery; from the fifth in a row the host is paused (2^n minutes, at most a day). */
  async hostFailed(host: string): Promise<void> {
    await this.db.execute(sql`
      INSERT INTO federation_hosts (host, failures) VALUES (${host}, 1)
      ON CONFLICT (host) DO UPDATE SET
        failures = federation_hosts.failures + 1,
        paused_until = CASE WHEN federation_hosts.failures + 1 >= 5
          THEN now() + make_interval(mins => least(1440, power(2, federation_hosts.failures + 1 - 5)::int)) END`);
  }

  async hostSucceeded(host: string): Promise<void> {
    await this.db.delete(federationHosts).where(eq(federationHosts.host, host));
  }

  // --- blocks -------------------------------------------------------------------------------

  /**
   * Whether the host, or (when given) the actor, is blocked, or the host is not on the allow-list in
   * allow-list mode. A blocked name blocks it on any port and its subdomains too (`evil.example`:
   * `evil.example:8443`, `x.evil.example`); a block naming a port blocks that port only.
   */
  async isBlocked(host: string, actorUri?: string): Promise<boolean> {
    const h = host.toLowerCase();
    const actor = actorUri ? sql` OR (b.kind = 'actor' AND b.target = ${actorUri})` : sql``;
    const [row] = await queryRows<{ blocked: boolean }>(
      this.db,
      sql`SELECT EXISTS (SELECT 1 FROM federation_blocks b WHERE (b.kind = 'host' AND ${hostBlockedBy(sql`${h}`, sql`b.target`)})${actor})
          OR (coalesce((SELECT mode FROM federation_policy), 'open') = 'allowlist'
              AND NOT EXISTS (SELECT 1 FROM federation_allowed_hosts WHERE host = ${h})) AS blocked`,
    );
    return row?.blocked === true;
  }

  async policy(): Promise<{ mode: 'open' | 'allowlist'; allowedHosts: string[] }> {
    const [p] = await this.db.select({ mode: federationPolicy.mode }).from(federationPolicy);
    const hosts = await this.db.select({ host: federationAllowedHosts.host }).from(federationAllowedHosts).orderBy(federationAllowedHosts.host);
    return { mode: p?.mode ?? 'open', allowedHosts: hosts.map((r) => r.host) };
  }

  async setMode(mode: 'open' | 'allowlist'): Promise<void> {
    await this.db.insert(federationPolicy).values({ id: true, mode }).onConflictDoUpdate({ target: federationPolicy.id, set: { mode } });
  }

  async allowHost(host: string, createdBy: string): Promise<void> {
    await this.db.insert(federationAllowedHosts).values({ host, createdBy }).onConflictDoNothing();
  }

  async disallowHost(host: string): Promise<boolean> {
    const rows = await this.db.delete(federationAllowedHosts).where(eq(federationAllowedHosts.host, host)).returning({ host: federationAllowedHosts.host });
    return rows.length > 0;
  }

  listBlocks() {
    return this.db.select().from(federationBlocks).orderBy(desc(federationBlocks.createdAt));
  }

  async addBlock(target: string, kind: 'host' | 'actor', createdBy: string): Promise<void> {
    await this.db.insert(federationBlocks).values({ target, kind, createdBy }).onConflictDoNothing();
  }

  async removeBlock(target: string): Promise<boolean> {
    const rows = await this.db.delete(federationBlocks).where(eq(federationBlocks.target, target)).returning({ target: federationBlocks.target });
    return rows.length > 0;
  }

  /**
   * Forgets what we kept of blocked actors (one actor, or every actor of a host): their follows of
   * our channels (the counts drop), our users' follows of them, their videos.
   */
  async purgeActors(by: { host: string } | { uri: string }): Promise<void> {
    const match = 'host' in by ? hostBlockedBy(sql`a.host`, sql`${by.host}`) : sql`a.uri = ${by.uri}`;
    await this.db.execute(sql`
      UPDATE users u SET subscriber_count = greatest(0, u.subscriber_count - f.n)
      FROM (SELECT rf.channel_id, count(*)::int AS n FROM remote_followers rf JOIN remote_actors a ON a.id = rf.actor_id WHERE ${match} GROUP BY rf.channel_id) f
      WHERE u.id = f.channel_id`);
    await this.db.execute(sql`
      UPDATE videos v SET likes = greatest(0, v.likes - r.up), dislikes = greatest(0, v.dislikes - r.down)
      FROM (SELECT rr.video_id, count(*) FILTER (WHERE rr.value = 1)::int AS up, count(*) FILTER (WHERE rr.value = -1)::int AS down
            FROM remote_video_rates rr JOIN remote_actors a ON a.id = rr.actor_id WHERE ${match} GROUP BY rr.video_id) r
      WHERE v.id = r.video_id`);
    await this.db.execute(sql`DELETE FROM remote_actors a WHERE ${match}`);
  }

  // --- likes and dislikes -------------------------------------------------------------------

  /** Sets (1, -1) or clears (0) a remote actor's rating of our video, keeping the video's counters in step. */
  async rateLocalVideo(videoId: string, actorId: string, value: 1 | -1 | 0, activityId: string): Promise<void> {
    const [old] = await this.db
      .delete(remoteVideoRates)
      .where(and(eq(remoteVideoRates.videoId, videoId), eq(remoteVideoRates.actorId, actorId)))
      .returning({ value: remoteVideoRates.value });
    if (value !== 0) await this.db.insert(remoteVideoRates).values({ videoId, actorId, value, activityId });
    const likes = (value === 1 ? 1 : 0) - (old?.value === 1 ? 1 : 0);
    const dislikes = (value === -1 ? 1 : 0) - (old?.value === -1 ? 1 : 0);
    if (likes || dislikes)
      await this.db
        .update(videos)
        .set({ likes: sql`greatest(0, ${videos.likes} + ${likes})`, dislikes: sql`greatest(0, ${videos.dislikes} + ${dislikes})` })
        .where(eq(videos.id, videoId));
  }

  /** The rated video of an actor's Like/Dislike activity (for an Undo naming only the activity). */
  async localRateByActivity(actorId: string, activityId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ videoId: remoteVideoRates.videoId })
      .from(remoteVideoRates)
      .where(and(eq(remoteVideoRates.actorId, actorId), eq(remoteVideoRates.activityId, activityId)));
    return row?.videoId;
  }

  async remoteVideoWithActor(id: string) {
    const [row] = await this.db
      .select({ video: remoteVideos, actor: remoteActors })
      .from(remoteVideos)
      .innerJoin(remoteActors, eq(remoteActors.id, remoteVideos.actorId))
      .where(eq(remoteVideos.id, id));
    return row;
  }

  async userRate(userId: string, remoteVideoId: string) {
    const [row] = await this.db
      .select({ value: remoteVideoUserRates.value })
      .from(remoteVideoUserRates)
      .where(and(eq(remoteVideoUserRates.userId, userId), eq(remoteVideoUserRates.remoteVideoId, remoteVideoId)));
    return row;
  }

  /** Replaces the user's rating of a remote video; answers the one it replaced (to Undo). */
  async setUserRate(userId: string, remoteVideoId: string, next: { value: 1 | -1; activityId: string } | null) {
    const [old] = await this.db
      .delete(remoteVideoUserRates)
      .where(and(eq(remoteVideoUserRates.userId, userId), eq(remoteVideoUserRates.remoteVideoId, remoteVideoId)))
      .returning({ value: remoteVideoUserRates.value, activityId: remoteVideoUserRates.activityId });
    if (next) await this.db.insert(remoteVideoUserRates).values({ userId, remoteVideoId, ...next });
    return old;
  }

  // --- comments (Notes) ---------------------------------------------------------------------

  /** False when a comment with this URI exists already (a Note delivered twice). */
  async insertComment(row: typeof federatedComments.$inferInsert): Promise<boolean> {
    const rows = await this.db.insert(federatedComments).values(row).onConflictDoNothing().returning({ id: federatedComments.id });
    return rows.length > 0;
  }

  async commentByUri(uri: string) {
    const [row] = await this.db.select().from(federatedComments).where(eq(federatedComments.uri, uri));
    return row;
  }

  async comment(id: string) {
    const [row] = await this.db.select().from(federatedComments).where(eq(federatedComments.id, id));
    return row;
  }

  async remoteVideoByUri(uri: string) {
    const [row] = await this.db.select().from(remoteVideos).where(eq(remoteVideos.uri, uri));
    return row;
  }

  async deleteCommentByUri(uri: string, actorId: string): Promise<boolean> {
    const rows = await this.db
      .delete(federatedComments)
      .where(and(eq(federatedComments.uri, uri), eq(federatedComments.authorActorId, actorId)))
      .returning({ id: federatedComments.id });
    return rows.length > 0;
  }

  /** A thread's comments, oldest first, with their authors; held ones only when `withHeld` (the video's owner). */
  thread(videoId: string, withHeld: boolean) {
    return this.db
      .select({
        comment: federatedComments,
        userName: users.userName,
        fullName: users.fullName,
        actorName: remoteActors.name,
        actorHandle: remoteActors.preferredUsername,
        actorHost: remoteActors.host,
      })
      .from(federatedComments)
      .leftJoin(users, eq(users.id, federatedComments.authorUserId))
      .leftJoin(remoteActors, eq(remoteActors.id, federatedComments.authorActorId))
      .where(
        and(
          sql`(${federatedComments.localVideoId} = ${videoId} OR ${federatedComments.remoteVideoId} = ${videoId})`,
          withHeld ? undefined : eq(federatedComments.reviewState, 'published'),
        ),
      )
      .orderBy(federatedComments.publishedAt, federatedComments.id)
      .limit(500);
  }

  // --- moderation across servers --------------------------------------------------------------

  async channelBlocksActor(channelId: string, actorId: string): Promise<boolean> {
    const rows = await this.db
      .select({ one: sql`1` })
      .from(channelRemoteBlocks)
      .where(and(eq(channelRemoteBlocks.channelId, channelId), eq(channelRemoteBlocks.actorId, actorId)))
      .limit(1);
    return rows.length > 0;
  }

  async addChannelBlock(channelId: string, actorId: string): Promise<void> {
    await this.db.insert(channelRemoteBlocks).values({ channelId, actorId }).onConflictDoNothing();
  }

  async removeChannelBlock(channelId: string, actorId: string): Promise<boolean> {
    const rows = await this.db
      .delete(channelRemoteBlocks)
      .where(and(eq(channelRemoteBlocks.channelId, channelId), eq(channelRemoteBlocks.actorId, actorId)))
      .returning({ actorId: channelRemoteBlocks.actorId });
    return rows.length > 0;
  }

  /** A channel's blocked remote accounts, newest first (at most 500: a list to read, not to page). */
  channelBlocks(channelId: string) {
    return this.db
      .select({ actor: remoteActors, blockedAt: channelRemoteBlocks.createdAt })
      .from(channelRemoteBlocks)
      .innerJoin(remoteActors, eq(remoteActors.id, channelRemoteBlocks.actorId))
      .where(eq(channelRemoteBlocks.channelId, channelId))
      .orderBy(desc(channelRemoteBlocks.createdAt))
      .limit(500);
  }

  /** False when the user already forwarded a report on this object. */
  async insertFlag(userId: string, objectUri: string): Promise<boolean> {
    const rows = await this.db.insert(federationFlags).values({ userId, objectUri }).onConflictDoNothing().returning({ userId: federationFlags.userId });
    return rows.length > 0;
  }

  /** Whether we have a tie with the host: one of its actors follows a channel here, or is followed from here. */
  async hostKnown(host: string): Promise<boolean> {
    const [row] = await queryRows<{ known: boolean }>(
      this.db,
      sql`SELECT EXISTS (SELECT 1 FROM remote_followers f JOIN remote_actors a ON a.id = f.actor_id WHERE a.host = ${host})
              OR EXISTS (SELECT 1 FROM remote_follows f JOIN remote_actors a ON a.id = f.actor_id WHERE a.host = ${host}) AS known`,
    );
    return row!.known;
  }

  // --- shares (Announce) ------------------------------------------------------------------------

  /** A remote actor's Announce of our video; a second one from the same actor replaces the first. */
  async addShare(videoId: string, actorId: string, activityId: string): Promise<void> {
    await this.db
      .insert(remoteShares)
      .values({ videoId, actorId, activityId })
      .onConflictDoUpdate({ target: [remoteShares.videoId, remoteShares.actorId], set: { activityId } });
  }

  /** Its Undo, by the Announce's id (or the video shared, when the Undo names it). */
  async removeShare(actorId: string, by: { activityId: string } | { videoId: string }): Promise<boolean> {
    const match = 'activityId' in by ? eq(remoteShares.activityId, by.activityId) : eq(remoteShares.videoId, by.videoId);
    const rows = await this.db.delete(remoteShares).where(and(eq(remoteShares.actorId, actorId), match)).returning({ videoId: remoteShares.videoId });
    return rows.length > 0;
  }
}

/**
 * The one rule of host blocks (isBlocked, purgeActors): `host` (`name[:port]`) is stopped by a block
 * of `target` when the target is the host itself, its name on any port, or a domain above it.
 */
function hostBlockedBy(host: SQL, target: SQL): SQL {
  const name = sql`split_part(lower(${host}), ':', 1)`;
  return sql`(lower(${host}) = lower(${target}) OR ${name} = lower(${target}) OR right(${name}, length(${target}) + 1) = '.' || lower(${target}))`;
}
