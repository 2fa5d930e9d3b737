import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../worker.ts';
import { JobsRepository } from '../../jobs/jobs.repository.ts';
import { bearer, createTestApp, createTweet, createUser, createVideo, memoryLog, type TestContext } from '../../../test/harness.ts';
import { call, expectError, MISSING_ID, rows } from '../../../test/http.ts';
import { transcodeHandler } from '../transcode/transcode.job.ts';
import type { UserRow } from '../users/users.repository.ts';
import { EVENTS_QUEUE } from '../../events/events.ts';
import { FANOUT_BATCH } from './notification-events.ts';
import { NotificationsRepository } from './notifications.repository.ts';

let t: TestContext;
let ada: UserRow;
let bob: UserRow;
let cy: UserRow;

beforeAll(async () => {
  t = await createTestApp();
  ada = await createUser(t.ctx, { fullName: 'Ada Lovelace' });
  bob = await createUser(t.ctx, { fullName: 'Bob Bell' });
  cy = await createUser(t.ctx, { fullName: 'Cy Young' });
});
afterAll(() => t.close());

const fanOut = () => createWorker(t.ctx, memoryLog()).drain();
const list = async (as: UserRow, query = '') => (await call(t, 'GET', `/notifications${query}`, { as })).body.data;
const ofType = async (as: UserRow, type: string) => (await list(as, '?limit=100')).notifications.filter((n: { type: string }) => n.type === type);
const subscribe = (as: UserRow, channel: UserRow) => call(t, 'POST', `/subscriptions/toggle/${channel.id}`, { as });
const comment = (as: UserRow, kind: 'video' | 'tweet', id: string, content: string, parentId?: string) =>
  call(t, 'POST', `/comments/${kind}/${id}${parentId ? `/${parentId}` : ''}`, { as, body: { content } });
const tweetForm = (content: string) => {
  const form = new FormData();
  form.append('content', content);
  return form;
};

describe('notifications API refusals', () => {
  it('asks visitors to log in, and keeps each user to their own notifications', async () => {
    for (const [method, url] of [
      ['GET', '/notifications'],
      ['GET', '/notifications/unread-count'],
      ['GET', '/notifications/stream'],
      ['POST', '/notifications/read-all'],
      ['PATCH', `/notifications/${MISSING_ID}/read`],
    ] as const) {
      expectError(await call(t, method, url), 401, 'Please login to see your notifications');
    }
    expectError(await call(t, 'PATCH', '/notifications/nope/read', { as: ada }), 400);
    expectError(await call(t, 'GET', '/notifications?limit=1000', { as: ada }), 400);
    expectError(await call(t, 'PATCH', `/notifications/${MISSING_ID}/read`, { as: ada }), 404, 'Notification not found');

    const channel = await createUser(t.ctx);
    await subscribe(ada, channel);
    await fanOut();
    const [mine] = await ofType(channel, 'newSubscriber');
    expectError(await call(t, 'PATCH', `/notifications/${mine._id}/read`, { as: ada }), 404, 'Notification not found');
    expect((await list(channel)).unread).toBe(1);
  });
});

describe('each type of notification', () => {
  it('newVideo: subscribers hear of a video once, when it first becomes public; not suspended accounts, nor those who blocked the channel', async () => {
    const channel = await createUser(t.ctx, { fullName: 'Channel Ch' });
    const [fan, gone, blocker] = [await createUser(t.ctx), await createUser(t.ctx), await createUser(t.ctx)];
    for (const u of [fan, gone, blocker]) await subscribe(u, channel);
    await rows(t, sql`UPDATE users SET state = 'suspended' WHERE id = ${gone.id}`);
    await rows(t, sql`INSERT INTO channel_blocks (channel_id, user_id) VALUES (${blocker.id}, ${channel.id})`);
    const video = await createVideo(t.ctx, channel, { privacy: 'private', title: 'Launch day' });
    await fanOut();
    expect(await ofType(fan, 'newVideo')).toEqual([]);

    expect((await call(t, 'PATCH', `/videos/${video.id}/publish`, { as: channel, body: { isPublished: true } })).status).toBe(200);
    await fanOut();
    const [told] = await ofType(fan, 'newVideo');
    expect(told).toMatchObject({ type: 'newVideo', read: false, actor: { _id: channel.id, fullName: 'Channel Ch' }, subject: { videoId: video.id, videoTitle: 'Launch day' } });
    expect(await ofType(blocker, 'newVideo')).toEqual([]);
    const [suspended] = await rows<{ n: number }>(t, sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${gone.id} AND type = 'newVideo'`);
    expect(suspended!.n).toBe(0);

    // Private and public again: no second announcement.
    await call(t, 'PATCH', `/videos/${video.id}/publish`, { as: channel, body: { isPublished: false } });
    await call(t, 'PATCH', `/videos/${video.id}/publish`, { as: channel, body: { isPublished: true } });
    await fanOut();
    expect(await ofType(fan, 'newVideo')).toHaveLength(1);
  });

  it('newVideo reaches every subscriber of a big channel, in batches, and a fan-out run twice adds nothing', async () => {
    const channel = await createUser(t.ctx);
    // Unverified addresses: in-app notifications all the same, but the later runs mail no digests to thousands.
    const extra = FANOUT_BATCH + 7;
    await rows(
      t,
      sql`WITH u AS (
            INSERT INTO users (id, user_name, full_name, email, password_hash, email_verified_at)
            SELECT gen_random_uuid(), 'bulk' || g || ${channel.id.slice(-6)}, 'Bulk ' || g, 'bulk' || g || ${channel.id.slice(-6)} || '@example.com', 'x', NULL
            FROM generate_series(1, ${extra}) g RETURNING id)
          INSERT INTO subscriptions (subscriber_id, channel_id) SELECT id, ${channel.id} FROM u`,
    );
    const video = await createVideo(t.ctx, channel, { privacy: 'private' });
    await call(t, 'PATCH', `/videos/${video.id}/publish`, { as: channel, body: { isPublished: true } });
    const [event] = await rows<{ id: string }>(t, sql`SELECT id FROM events WHERE kind = 'videoPublished' AND payload ->> 'videoId' = ${video.id}`);
    // A second job for the same event, run by a second worker at the same time (a retry after a lost heartbeat).
    await new JobsRepository(t.ctx.db).enqueue(EVENTS_QUEUE, { eventId: event!.id });
    await Promise.all([fanOut(), fanOut()]);
    const counted = () =>
      rows<{ n: number; users: number }>(t, sql`SELECT count(*)::int AS n, count(DISTINCT user_id)::int AS users FROM notifications WHERE event_id = ${event!.id}`);
    expect(await counted()).toEqual([{ n: extra, users: extra }]);
    // Delivering a batch again (a worker that died before deleting the event) writes nothing new.
    const again = new NotificationsRepository(t.ctx.db);
    expect(await again.deliverToSubscribers({ eventId: event!.id, type: 'newVideo', actorId: channel.id, subject: { videoId: video.id } }, channel.id, null, FANOUT_BATCH)).not.toBeNull();
    expect(await counted()).toEqual([{ n: extra, users: extra }]);
    // The told event leaves the outbox.
    expect(await rows(t, sql`SELECT id FROM events WHERE id = ${event!.id}`)).toEqual([]);
  });

  it('comment, reply and mention: the video owner, the parent comment author and mentioned users, each once', async () => {
    const video = await createVideo(t.ctx, ada, { title: 'Engines' });
    const top = await comment(bob, 'video', video.id, 'Lovely engine');
    await fanOut();
    const [onVideo] = await ofType(ada, 'comment');
    expect(onVideo).toMatchObject({ actor: { _id: bob.id }, subject: { videoId: video.id, videoTitle: 'Engines', commentId: top.body.data._id, excerpt: 'Lovely engine' } });

    await comment(ada, 'video', video.id, 'Thanks!', top.body.data._id);
    await comment(cy, 'video', video.id, `Agreed @${bob.userName}, and @nobody-here`);
    await fanOut();
    const [reply] = await ofType(bob, 'reply');
    expect(reply).toMatchObject({ actor: { _id: ada.id }, subject: { videoId: video.id, excerpt: 'Thanks!' } });
    const [mention] = await ofType(bob, 'mention');
    expect(mention).toMatchObject({ actor: { _id: cy.id }, subject: { videoId: video.id, excerpt: `Agreed @${bob.userName}, and @nobody-here` } });
    // Ada's own reply tells no one but Bob; Cy's comment tells Ada once, as a comment.
    expect((await ofType(ada, 'comment')).map((n: { actor: { _id: string } }) => n.actor._id)).toEqual([cy.id, bob.id]);
  });

  it('a mention in a private video tells no one who cannot see it; a held comment tells no one until approved', async () => {
    const before = (await ofType(bob, 'mention')).length;
    const secret = await createVideo(t.ctx, ada, { privacy: 'private' });
    await comment(ada, 'video', secret.id, `@${bob.userName} look`);
    await fanOut();
    expect(await ofType(bob, 'mention')).toHaveLength(before);

    const admin = await createUser(t.ctx, { role: 'admin' });
    expect((await call(t, 'POST', '/admin/watched-words', { as: admin, body: { word: 'spoiler' } })).status).toBe(201);
    const video = await createVideo(t.ctx, ada);
    const held = await comment(cy, 'video', video.id, 'big spoiler ahead');
    await fanOut();
    expect((await ofType(ada, 'comment')).filter((n: { subject: { videoId: string } }) => n.subject.videoId === video.id)).toEqual([]);
    expect((await call(t, 'POST', `/comments/${held.body.data._id}/approve`, { as: ada })).status).toBe(200);
    await fanOut();
    expect((await ofType(ada, 'comment')).filter((n: { subject: { videoId: string } }) => n.subject.videoId === video.id)).toHaveLength(1);
  });

  it('mention in a tweet; a comment on a tweet tells its owner', async () => {
    const res = await call(t, 'POST', '/tweets', { as: cy, body: tweetForm(`Hello @${ada.userName}!`) });
    expect(res.status).toBe(201);
    await fanOut();
    const mentions = await ofType(ada, 'mention');
    expect(mentions[0]).toMatchObject({ actor: { _id: cy.id }, subject: { tweetId: res.body.data._id, excerpt: `Hello @${ada.userName}!` } });

    const tweet = await createTweet(t.ctx, cy);
    await comment(bob, 'tweet', tweet.id, 'Nice post');
    await fanOut();
    expect((await ofType(cy, 'comment'))[0]).toMatchObject({ actor: { _id: bob.id }, subject: { tweetId: tweet.id } });
  });

  it('newSubscriber: once a day per subscriber, however often they toggle', async () => {
    const channel = await createUser(t.ctx);
    await subscribe(bob, channel);
    await subscribe(bob, channel);
    await subscribe(bob, channel);
    await fanOut();
    expect(await ofType(channel, 'newSubscriber')).toMatchObject([{ actor: { _id: bob.id } }]);
  });

  it('videoProcessed: the owner hears that processing failed, and why', async () => {
    const video = await createVideo(t.ctx, bob, { status: 'processing', privacy: 'private', title: 'Broken' });
    await transcodeHandler(t.ctx).onFailed({ videoId: video.id } as never, 'the file has no video stream', memoryLog());
    await fanOut();
    expect(await ofType(bob, 'videoProcessed')).toMatchObject([
      { actor: null, subject: { videoId: video.id, videoTitle: 'Broken', outcome: 'failed', reason: 'the file has no video stream' } },
    ]);
  });

  it('moderation: the owner hears of a take-down with its reason, the reporter of the outcome', async () => {
    const moderator = await createUser(t.ctx, { role: 'moderator' });
    const video = await createVideo(t.ctx, cy);
    expect((await call(t, 'POST', '/reports', { as: bob, body: { targetKind: 'video', targetId: video.id, reason: 'spam' } })).status).toBe(201);
    const act = await call(t, 'POST', `/moderation/targets/video/${video.id}/take-down`, { as: moderator, body: { reason: 'Spam links' } });
    expect(act.status, JSON.stringify(act.body)).toBe(200);
    await fanOut();
    expect(await ofType(cy, 'moderation')).toMatchObject([{ actor: null, subject: { outcome: 'Removed by the moderators', reason: 'Spam links', videoId: video.id } }]);
    expect(await ofType(bob, 'moderation')).toMatchObject([{ subject: { outcome: 'Your report was reviewed: the moderators acted on it' } }]);
  });
});

describe('reading', () => {
  it('lists newest first with the unread filter and cursor pages; marks one and all read', async () => {
    const reader = await createUser(t.ctx);
    for (const u of [ada, bob, cy]) await subscribe(u, reader);
    await fanOut();
    const first = await list(reader, '?limit=2');
    expect(first.notifications.map((n: { actor: { _id: string } }) => n.actor._id)).toEqual([cy.id, bob.id]);
    expect([first.unread, first.hasNextPage]).toEqual([3, true]);
    const second = await list(reader, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.notifications.map((n: { actor: { _id: string } }) => n.actor._id)).toEqual([ada.id]);

    const read = await call(t, 'PATCH', `/notifications/${first.notifications[0]._id}/read`, { as: reader });
    expect(read.body).toMatchObject({ statusCode: 200, data: { unread: 2 }, message: 'Notification marked as read' });
    expect((await list(reader, '?unread=true')).notifications).toHaveLength(2);
    expect((await call(t, 'GET', '/notifications/unread-count', { as: reader })).body.data).toEqual({ unread: 2 });
    expect((await call(t, 'POST', '/notifications/read-all', { as: reader })).body.data).toEqual({ updated: 2, unread: 0 });
    expect((await list(reader)).notifications.every((n: { read: boolean }) => n.read)).toBe(true);
  });
});

describe('GET /notifications/stream', () => {
  it('sends the unread count at once and again when a notification arrives, without a reload', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1`;
    const channel = await createUser(t.ctx);
    const controller = new AbortController();
    const res = await fetch(`${base}/notifications/stream`, { headers: await bearer(t.ctx, channel), signal: controller.signal });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const nextUnread = async () => {
      for (;;) {
        const events = text.split('\n\n');
        const done = events.findIndex((e) => e.startsWith('event: unread'));
        if (done >= 0) {
          text = events.slice(done + 1).join('\n\n');
          return JSON.parse(events[done]!.split('data: ')[1]!).unread as number;
        }
        const { value } = await reader.read();
        text += value;
      }
    };
    expect(await nextUnread()).toBe(0);
    await subscribe(bob, channel);
    await fanOut();
    expect(await nextUnread()).toBe(1);
    const [n] = await ofType(channel, 'newSubscriber');
    await call(t, 'PATCH', `/notifications/${n._id}/read`, { as: channel });
    expect(await nextUnread()).toBe(0);
    controller.abort();
  });
});
