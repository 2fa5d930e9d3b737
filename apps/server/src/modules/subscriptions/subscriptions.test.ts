import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, createVideo, type TestContext } from '../../../test/harness.ts';
import { call, expectError, MISSING_ID, rows } from '../../../test/http.ts';
import type { UserRow } from '../users/users.repository.ts';

let t: TestContext;
let alice: UserRow;
let bob: UserRow;

beforeAll(async () => {
  t = await createTestApp();
  alice = await createUser(t.ctx, { fullName: 'Alice' });
  bob = await createUser(t.ctx, { fullName: 'Bob' });
});
afterAll(() => t.close());

const toggle = (as: UserRow | null, channelId: string) => call(t, 'POST', `/subscriptions/toggle/${channelId}`, { as: as ?? undefined });
const subscriptionRows = async () => (await rows<{ n: number }>(t, sql`SELECT count(*)::int AS n FROM subscriptions`))[0]!.n;

describe('POST /subscriptions/toggle/{channelId}', () => {
  it('answers 401, 400 and 404 without subscribing', async () => {
    const before = await subscriptionRows();
    expectError(await toggle(null, alice.id), 401, 'Please login to subscribe');
    expectError(await toggle(bob, bob.id), 400, 'You cannot subscribe to your own channel');
    expectError(await toggle(bob, 'nope'), 400, 'Invalid id');
    expectError(await toggle(bob, MISSING_ID), 404, 'Channel not found');
    expect(await subscriptionRows()).toBe(before);
  });

  it('subscribes and unsubscribes, answering the new state and count', async () => {
    const channel = await createUser(t.ctx);
    const first = await toggle(bob, channel.id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ message: 'Subscribed successfully', data: { isSubscribed: true, subscriberCount: 1 } });
    expect((await toggle(alice, channel.id)).body.data).toEqual({ isSubscribed: true, subscriberCount: 2, subscribers: 2, totalSubscribers: 2 });
    const off = await toggle(bob, channel.id);
    expect(off.body).toMatchObject({ message: 'Unsubscribed successfully', data: { isSubscribed: false, subscriberCount: 1 } });
  });

  it('keeps the counter equal to the rows under concurrent toggles', async () => {
    const channel = await createUser(t.ctx);
    const fans = await Promise.all(Array.from({ length: 5 }, () => createUser(t.ctx)));
    const answers = await Promise.all(Array.from({ length: 23 }, (_, i) => toggle(fans[i % 5]!, channel.id)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const [row] = await rows<{ stored: number; counted: number }>(
      t,
      sql`SELECT subscriber_count AS stored, (SELECT count(*)::int FROM subscriptions WHERE channel_id = ${channel.id}) AS counted
          FROM users WHERE id = ${channel.id}`,
    );
    expect(row!.stored).toBe(row!.counted);
    // 23 clicks over 5 users: three users clicked 5 times (subscribed), two clicked 4 times (not).
    expect(row!.counted).toBe(3);
  });
});

describe('GET /subscriptions (feed)', () => {
  it('answers 401 when anonymous', async () => {
    expectError(await call(t, 'GET', '/subscriptions'), 401, 'Please login to view your subscriptions');
  });

  it('lists visible videos of subscribed channels, newest first, paginated', async () => {
    const viewer = await createUser(t.ctx);
    const followed = await createUser(t.ctx, { fullName: 'Followed' });
    const other = await createUser(t.ctx);
    const old = await createVideo(t.ctx, followed, { title: 'old', createdAt: new Date('2024-01-01T00:00:00Z') });
    await createVideo(t.ctx, followed, { title: 'new', createdAt: new Date('2025-01-01T00:00:00Z') });
    await createVideo(t.ctx, followed, { title: 'mid', createdAt: new Date('2024-06-01T00:00:00Z') });
    await createVideo(t.ctx, followed, { title: 'draft', privacy: 'private' });
    await createVideo(t.ctx, followed, { title: 'failed', status: 'failed' });
    await createVideo(t.ctx, other, { title: 'not followed' });
    await toggle(viewer, followed.id);

    const res = await call(t, 'GET', '/subscriptions?limit=2', { as: viewer });
    expect(res.status).toBe(200);
    expect(res.body.data.subscriptions.map((v: { title: string }) => v.title)).toEqual(['new', 'mid']);
    expect(res.body.data.subscriptions[0]).toMatchObject({ owner: { _id: followed.id, fullName: 'Followed' }, isPublished: true });
    // Spec §3: a subscription list item carries its channel.
    expect(res.body.data.subscriptions[0].channel).toEqual({
      _id: followed.id,
      userName: followed.userName,
      fullName: 'Followed',
      avatar: null,
      coverImage: null,
      subscriberCount: 1,
      subscribers: 1,
      totalSubscribers: 1,
      videoCount: 3,
      isSubscribed: true,
      createdAt: followed.createdAt.toISOString(),
    });
    const rest = await call(t, 'GET', `/subscriptions?limit=2&cursor=${res.body.data.nextCursor}`, { as: viewer });
    expect(rest.body.data.subscriptions.map((v: { _id: string }) => v._id)).toEqual([old.id]);
    expect(rest.body.data.hasNextPage).toBe(false);
    const page2 = await call(t, 'GET', '/subscriptions?limit=2&page=2', { as: viewer });
    expect(page2.body.data.subscriptions.map((v: { _id: string }) => v._id)).toEqual([old.id]);
  });
});

describe('GET /subscriptions/channel/{channelId}', () => {
  it('answers 404 for an unknown channel and 400 for a malformed id', async () => {
    expectError(await call(t, 'GET', `/subscriptions/channel/${MISSING_ID}`), 404, 'Channel not found');
    expectError(await call(t, 'GET', `/subscriptions/channel/nope`), 400, 'Invalid id');
  });

  it('lists the channels a channel subscribes to as channel objects, isSubscribed and email for the viewer', async () => {
    const fan = await createUser(t.ctx);
    const a = await createUser(t.ctx, { fullName: 'Channel A' });
    const b = await createUser(t.ctx, { fullName: 'Channel B' });
    await toggle(fan, a.id);
    await toggle(fan, b.id);
    await toggle(alice, b.id);

    const res = await call(t, 'GET', `/subscriptions/channel/${fan.id}?userId=${alice.id}&limit=1`);
    expect(res.status).toBe(200);
    expect(res.body.data.subscribedChannels).toEqual([
      {
        channel: {
          _id: b.id,
          userName: b.userName,
          fullName: 'Channel B',
          avatar: null,
          coverImage: null,
          subscriberCount: 2,
          subscribers: 2,
          totalSubscribers: 2,
          videoCount: 0,
          isSubscribed: false,
          createdAt: b.createdAt.toISOString(),
        },
        subscribedAt: expect.any(String),
      },
    ]);
    // The viewer's relation comes from the token (never ?userId); the email only on the viewer's own channel.
    const asAlice = await call(t, 'GET', `/subscriptions/channel/${fan.id}?limit=1`, { as: alice });
    expect(asAlice.body.data.subscribedChannels[0].channel).toMatchObject({ isSubscribed: true });
    expect(asAlice.body.data.subscribedChannels[0].channel).not.toHaveProperty('email');
    const asB = await call(t, 'GET', `/subscriptions/channel/${fan.id}?limit=1`, { as: b });
    expect(asB.body.data.subscribedChannels[0].channel).toMatchObject({ _id: b.id, email: b.email, isSubscribed: false });
    const rest = await call(t, 'GET', `/subscriptions/channel/${fan.id}?limit=1&cursor=${res.body.data.nextCursor}`);
    expect(rest.body.data.subscribedChannels.map((s: { channel: { _id: string } }) => s.channel._id)).toEqual([a.id]);
    expect(rest.body.data.hasNextPage).toBe(false);
  });
});
