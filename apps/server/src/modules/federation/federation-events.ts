import type { AppContext } from '../../context.ts';
import type { EventSubscriber } from '../../events/dispatch.ts';
import { enqueueDeliveries } from './delivery.ts';
import { activity, AS_PUBLIC, tweetNote, videoCommentNote } from './documents.ts';
import { FederationRepository } from './federation.repository.ts';
import { FederationService } from './federation.service.ts';

/**
 * Tells remote followers about a channel's videos and tweets (ARCHITECTURE §14). It reads the video's state
 * when it runs: listed -> Create (first time) or Update; no longer listed (private, unlisted, taken
 * down, deleted) but sent before -> Delete. Activity ids carry the event's id, so a retried dispatch
 * sends the same ids and receivers drop the copies.
 */
export function federationEvents(ctx: AppContext): EventSubscriber {
  const federation = new FederationService(ctx);
  const urls = federation.urls;

  /**
   * A channel's tweet goes to its remote followers as a Note: Create when published; after an edit,
   * Update while it is shown, else (deleted, held by an edit, taken down) Delete of a Tombstone.
   */
  async function tweetNoteActivity(eventId: string, e: { kind: 'tweetPublished' | 'tweetChanged'; actorId: string; tweetId: string }) {
    const repo = new FederationRepository(ctx.db);
    const tweet = await repo.shownTweet(e.tweetId);
    if (!tweet && e.kind === 'tweetPublished') return { skipped: 'not shown' };
    const ownerId = tweet?.ownerId ?? e.actorId;
    const channel = urls.channel(ownerId);
    const note = tweet ? tweetNote(urls, tweet) : null;
    const type = !note ? 'Delete' : e.kind === 'tweetPublished' ? 'Create' : 'Update';
    const object = note ?? { type: 'Tombstone', id: urls.tweet(e.tweetId) };
    const audience = note ? { to: note.to, cc: note.cc } : { to: [AS_PUBLIC], cc: [`${channel}/followers`] };
    const act = activity(type, `${urls.tweet(e.tweetId)}/${type.toLowerCase()}/${eventId}`, channel, object, audience);
    const inboxes = await repo.followerInboxes(ownerId);
    return ctx.db.transaction(async (tx) => ({ [type]: await enqueueDeliveries(tx, inboxes, act, { kind: 'channel', userId: ownerId }) }));
  }

  /**
   * A local comment on a video that went to other servers, as its author's Note to the channel's
   * followers' servers: Create when it is first shown, Update after an edit while shown; Delete of a
   * Tombstone for each sent Note no longer shown (held by an edit, taken down, deleted with an
   * ancestor). Replies answer their parent's Note, so threads are kept.
   */
  async function videoCommentActivity(eventId: string, commentId: string, videoId: string) {
    const repo = new FederationRepository(ctx.db);
    const comment = await repo.sendableComment(commentId);
    return ctx.db.transaction(async (tx) => {
      const trepo = new FederationRepository(tx);
      const sent: Record<string, number> = {};
      const send = async (type: string, authorId: string, channelId: string, object: { type: string; id: string }) => {
        const act = activity(type, `${object.id}/${type.toLowerCase()}/${eventId}`, urls.account(authorId), object, { to: [AS_PUBLIC], cc: [`${urls.channel(channelId)}/followers`] });
        sent[type] = (sent[type] ?? 0) + (await enqueueDeliveries(tx, await trepo.followerInboxes(channelId), act, { kind: 'account', userId: authorId }));
      };
      if (comment) {
        const [before] = await trepo.sentComments(comment.videoId, [comment.id]);
        await trepo.markCommentSent({ commentId: comment.id, videoId: comment.videoId, channelId: comment.channelId, authorId: comment.authorId });
        await send(before ? 'Update' : 'Create', comment.authorId, comment.channelId, videoCommentNote(urls, comment));
      }
      // Sent Notes no longer shown: this one (held, taken down, the video no longer federated) and any deleted with it.
      const hidden = comment ? [] : await trepo.sentComments(videoId, [commentId]);
      const gone = new Map([...hidden, ...(await trepo.goneSentComments(videoId))].map((g) => [g.commentId, g]));
      for (const g of gone.values()) {
        await trepo.unmarkCommentSent(g.commentId);
        await send('Delete', g.authorId, g.channelId, { type: 'Tombstone', id: urls.videoComment(g.commentId) });
      }
      return Object.keys(sent).length > 0 ? sent : { skipped: 'not sent' };
    });
  }

  /**
   * A deleted account: `Delete` of its channel (`Group`) and its account (`Person`), each signed by
   * the actor deleted (its key outlives the account for this, migration 1047), object = actor, as
   * Mastodon (`DeleteService` for an actor) and PeerTube (`processDeleteActivity`) expect.
   */
  async function accountDeleted(eventId: string, userId: string, inboxes: string[]) {
    return ctx.db.transaction(async (tx) => {
      const sent: Record<string, number> = {};
      for (const kind of ['channel', 'account'] as const) {
        const actor = kind === 'channel' ? urls.channel(userId) : urls.account(userId);
        const act = activity('Delete', `${actor}/delete/${eventId}`, actor, actor, { to: [AS_PUBLIC] });
        sent[kind] = await enqueueDeliveries(tx, inboxes, act, { kind, userId });
      }
      return sent;
    });
  }

  return {
    name: 'federation',
    async handle(eventId, event) {
      if (!ctx.config.federation.enabled) return { skipped: 'federation off' };
      if (event.kind === 'tweetPublished' || event.kind === 'tweetChanged') return tweetNoteActivity(eventId, event);
      if (event.kind === 'accountDeleted') return accountDeleted(eventId, event.userId, event.inboxes);
      if (event.kind === 'commentChanged') return videoCommentActivity(eventId, event.commentId, event.videoId);
      if (event.kind === 'commentPublished') {
        // Only a video's comments federate; the event does not say which entity, the comment does.
        const video = await new FederationRepository(ctx.db).commentVideo(event.commentId);
        return video ? videoCommentActivity(eventId, event.commentId, video) : { skipped: 'not on a video' };
      }
      if (event.kind !== 'videoPublished' && event.kind !== 'videoChanged') return { skipped: event.kind };
      const video = await federation.videoDocument(event.videoId);
      return ctx.db.transaction(async (tx) => {
        const repo = new FederationRepository(tx);
        const sent = await repo.federatedVideo(event.videoId);
        const ownerId = video ? event.actorId : sent?.ownerId;
        if (!ownerId) return { skipped: 'never federated' };
        const channel = urls.channel(ownerId);
        const inboxes = await repo.followerInboxes(ownerId);
        const audience = { to: [AS_PUBLIC], cc: [`${channel}/followers`] };
        if (video) {
          const type = sent ? 'Update' : 'Create';
          await repo.markFederated(event.videoId, ownerId);
          const act = activity(type, `${video.id}/${type.toLowerCase()}/${eventId}`, channel, video, audience);
          return { [type]: await enqueueDeliveries(tx, inboxes, act, { kind: 'channel', userId: ownerId }) };
        }
        if (!sent) return { skipped: 'never federated' };
        await repo.unmarkFederated(event.videoId);
        const tombstone = { type: 'Tombstone', id: urls.video(event.videoId) };
        const act = activity('Delete', `${urls.video(event.videoId)}/delete/${eventId}`, channel, tombstone, audience);
        return { Delete: await enqueueDeliveries(tx, inboxes, act, { kind: 'channel', userId: ownerId }) };
      });
    },
  };
}
