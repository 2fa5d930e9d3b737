import type { AppContext } from '../../context.ts';
import type { EventSubscriber } from '../../events/dispatch.ts';
import { enqueueDeliveries } from './delivery.ts';
import { activity, AS_PUBLIC, tweetNote } from './documents.ts';
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

  /** A channel's tweet goes to its remote followers as a Note (Create); later edits and deletions are not sent. */
  async function tweetPublished(eventId: string, tweetId: string) {
    const repo = new FederationRepository(ctx.db);
    const tweet = await repo.shownTweet(tweetId);
    if (!tweet) return { skipped: 'not shown' };
    const note = tweetNote(urls, tweet);
    const act = activity('Create', `${note.id}/create/${eventId}`, urls.channel(tweet.ownerId), note, { to: note.to, cc: note.cc });
    const inboxes = await repo.followerInboxes(tweet.ownerId);
    return ctx.db.transaction(async (tx) => ({ Create: await enqueueDeliveries(tx, inboxes, act, { kind: 'channel', userId: tweet.ownerId }) }));
  }

  return {
    name: 'federation',
    async handle(eventId, event) {
      if (!ctx.config.federation.enabled) return { skipped: 'federation off' };
      if (event.kind === 'tweetPublished') return tweetPublished(eventId, event.tweetId);
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
