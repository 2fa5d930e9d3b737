import { parseMentions, type NotificationSubject } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { JobsRepository } from '../../jobs/jobs.repository.ts';
import type { EventSubscriber } from '../../events/dispatch.ts';
import type { DomainEvent, EventOf } from '../../events/events.ts';
import { pace } from '../../jobs/pace.ts';
import type { JobContext } from '../../jobs/worker.ts';
import { CommentsRepository } from '../comments/comments.repository.ts';
import { entityOf } from '../comments/comments.presenter.ts';
import { LivesRepository } from '../lives/lives.repository.ts';
import { TweetsRepository } from '../tweets/tweets.repository.ts';
import { VideosRepository } from '../videos/videos.repository.ts';
import { requestMailRun } from './notification-mail.job.ts';
import { NotificationMailRepository } from './notification-mail.repository.ts';
import { NotificationsRepository, type Delivery } from './notifications.repository.ts';

/**
 * Subscribers written per statement: each is a few tens of ms, so a request that meets one waits
 * little (batches of 5,000 made the API's p99 2x while 100,000 were told; ADR 025), and the
 * batches are paced (jobs/pace.ts) so that requests queued behind one go first.
 */
export const FANOUT_BATCH = 1000;
const EXCERPT_MAX = 140;

const excerpt = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > EXCERPT_MAX ? `${line.slice(0, EXCERPT_MAX - 1)}…` : line;
};

/**
 * The notifications module's subscriber to domain events: turns one event into notifications (ARCHITECTURE §10): at least once and idempotently (one row per
 * event and recipient), subscribers in batches with a heartbeat between them, and after each write
 * a NOTIFY so API processes update the open bells. Mails are sent from these rows by the mail job.
 */
export function notificationEvents(ctx: AppContext): EventSubscriber {
  const repo = new NotificationsRepository(ctx.db);
  const videos = new VideosRepository(ctx.db);
  const comments = new CommentsRepository(ctx.db);
  const tweets = new TweetsRepository(ctx.db);
  const lives = new LivesRepository(ctx.db);
  const mail = new NotificationMailRepository(ctx.db);
  const jobs = new JobsRepository(ctx.db);

  const tell = async (d: Delivery, userIds: string[]) => {
    if ((await repo.deliverTo(d, userIds)).length > 0) await repo.notify(`e:${d.eventId}`);
  };

  /** Mentioned users who may see the item (a mention in a private video's comments tells no outsider). */
  const mentioned = async (text: string, maysee: (userId: string) => Promise<boolean>) => {
    const ids = await repo.idsByUserName(parseMentions(text));
    const shown = await Promise.all(ids.map(async (id) => ((await maysee(id)) ? id : null)));
    return shown.filter((id): id is string => id !== null);
  };

  /** Every subscriber of the channel, in batches, each followed by a NOTIFY for the open bells. */
  const toSubscribers = async (d: Delivery, channelId: string, job: JobContext) => {
    let after: string | null = null;
    let batches = 0;
    do {
      const started = performance.now();
      after = await repo.deliverToSubscribers(d, channelId, after, FANOUT_BATCH);
      if (after) {
        batches += 1;
        await repo.notify(`e:${d.eventId}`);
        await job.heartbeat();
        await pace(started, job.signal);
        job.signal.throwIfAborted();
      }
    } while (after);
    return { batches };
  };

  const fanouts = {
    // Federation's: no one is notified of an edit.
    async videoChanged() {
      return { skipped: 'no notification' };
    },
    async tweetChanged() {
      return { skipped: 'no notification' };
    },
    async commentChanged() {
      return { skipped: 'no notification' };
    },
    async accountDeleted() {
      return { skipped: 'no notification' };
    },
    async videoPublished(eventId: string, e: EventOf<'videoPublished'>, job: JobContext) {
      const video = await videos.findRow(e.videoId);
      if (!video || !(await videos.isListed(e.videoId))) return { skipped: 'not listed' };
      return toSubscribers({ eventId, type: 'newVideo', actorId: e.actorId, subject: { videoId: video.id, videoTitle: video.title } }, video.ownerId, job);
    },

    async liveStarted(eventId: string, e: EventOf<'liveStarted'>, job: JobContext) {
      // Read now: a live made private, or whose session already ended, tells nobody.
      const live = await lives.find(e.liveId);
      if (!live || live.privacy !== 'public' || live.sessionId !== e.sessionId || live.state !== 'live') return { skipped: 'not public and on air' };
      return toSubscribers({ eventId, type: 'live', actorId: e.actorId, subject: { liveId: live.id, liveTitle: live.title } }, live.ownerId, job);
    },

    async commentPublished(eventId: string, e: EventOf<'commentPublished'>) {
      const comment = await comments.findById(e.commentId);
      if (!comment || comment.reviewState !== 'published') return { skipped: 'not published' };
      const { type, id: entityId } = entityOf(comment);
      // Live chat moves too fast for a notification per message (ADR 024).
      if (type === 'live') return { skipped: 'live chat' };
      const entity = await comments.findEntity(type, entityId, null, false);
      if (!entity) return { skipped: 'gone' };
      const video = type === 'video' ? await videos.findRow(entityId) : undefined;
      const subject: NotificationSubject = {
        ...(video ? { videoId: video.id, videoTitle: video.title } : { tweetId: entityId }),
        commentId: comment.id,
        excerpt: excerpt(comment.content),
      };
      const base = { eventId, actorId: e.actorId, subject };
      // One notification per recipient and event: the first kind that applies wins (a reply to the owner is a reply).
      const parent = comment.parentId ? await comments.findById(comment.parentId) : undefined;
      if (parent) await tell({ ...base, type: 'reply' }, [parent.ownerId]);
      const mayseeEntity = async (userId: string) => Boolean((await comments.findEntity(type, entityId, userId, false))?.visible);
      await tell({ ...base, type: 'mention' }, await mentioned(comment.content, mayseeEntity));
      await tell({ ...base, type: 'comment' }, [entity.ownerId]);
      return { done: true };
    },

    async tweetPublished(eventId: string, e: EventOf<'tweetPublished'>) {
      const tweet = await tweets.findView(e.tweetId, null, false);
      if (!tweet) return { skipped: 'not shown' };
      const subject: NotificationSubject = { tweetId: e.tweetId, excerpt: excerpt(tweet.tweet.content) };
      await tell({ eventId, actorId: e.actorId, type: 'mention', subject }, await mentioned(tweet.tweet.content, async () => true));
      return { done: true };
    },

    async subscribed(eventId: string, e: EventOf<'subscribed'>) {
      // Subscribe, unsubscribe, subscribe again: the channel hears of it once a day at most.
      if (await repo.recentlySubscribed(e.channelId, e.actorId)) return { skipped: 'told recently' };
      await tell({ eventId, actorId: e.actorId, type: 'newSubscriber', subject: {} }, [e.channelId]);
      return { done: true };
    },

    async videoProcessed(eventId: string, e: EventOf<'videoProcessed'>) {
      const video = await videos.findRow(e.videoId);
      if (!video) return { skipped: 'gone' };
      const subject: NotificationSubject = { videoId: video.id, videoTitle: video.title, outcome: e.outcome, ...(e.reason ? { reason: e.reason } : {}) };
      await tell({ eventId, actorId: null, type: 'videoProcessed', subject }, [video.ownerId]);
      return { done: true };
    },

    async moderation(eventId: string, e: EventOf<'moderation'>) {
      await tell({ eventId, actorId: null, type: 'moderation', subject: e.subject }, e.userIds);
      return { done: true };
    },
  };

  return {
    name: 'notifications',
    async handle(eventId, event, job) {
      const fanout = fanouts[event.kind] as (id: string, e: DomainEvent, job: JobContext) => Promise<object>;
      const result = await fanout(eventId, event, job);
      // Rows to mail at once: a mail run soon, not at the next maintenance.
      if (await mail.hasInstant(eventId)) await requestMailRun(jobs);
      return result;
    },
  };
}
