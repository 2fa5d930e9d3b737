import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counterMismatches } from '../../test/invariants.ts';
import { sql } from 'drizzle-orm';
import { mailableTypes, MIN_CHAPTERS, parseChapters } from '@glimpse/contract';
import { call, rows } from '../../test/http.ts';
import { createTestApp, createUser, memoryLog, readOutbox, type TestContext } from '../../test/harness.ts';
import { createWorker } from '../worker.ts';
import type { UserRow } from '../modules/users/users.repository.ts';
import { DEMO_PASSWORD, DEMO_VIDEOS, DemoRefusedError, seedDemo, type DemoResult } from './demo.service.ts';

let t: TestContext;
let result: DemoResult;
const lines: string[] = [];
beforeAll(async () => {
  t = await createTestApp();
  result = await seedDemo(t.ctx, { videos: 2, maxSeconds: 2, maxViews: 4, log: (l) => lines.push(l) });
}, 120_000);
afterAll(() => t.close());

describe('seedDemo', () => {
  it('fills an empty instance: transcoded, published videos on the home page, with consistent counts', async () => {
    expect(result.videos).toBe(2);
    // One line per transcode, whatever else the drain ran.
    expect(lines.filter((l) => l.startsWith('Transcoded '))).toEqual(['Transcoded 1/2', 'Transcoded 2/2']);
    const home = await call(t, 'GET', '/videos');
    expect(home.status).toBe(200);
    expect(home.body.data.data).toHaveLength(2);
    for (const v of home.body.data.data) {
      expect(v).toMatchObject({ isPublished: true, status: 'ready' });
      expect(v.likes + v.dislikes).toBe(3);
      // The three other channels and four logged-out visitors.
      expect(v.views).toBe(7);
      expect(v.thumbnail.url).toBeTruthy();
    }
    const channel = await call(t, 'GET', '/users/channel/ava');
    expect(channel.body.data).toMatchObject({ fullName: 'Ava Lindqvist', subscriberCount: 2 });
    expect(channel.body.data.avatar.url).toBeTruthy();
    expect(await counterMismatches(t.ctx.db)).toEqual([]);
  });

  it('draws the titles in with the bundled engine', () => {
    expect(result.titled).toBe(true);
    expect(lines.some((l) => l.includes('cannot draw text'))).toBe(false);
  });

  it('adds tweets with pictures, comment threads and playlists', async () => {
    const ava = (await call(t, 'GET', '/users/channel/ava')).body.data;
    const list = (await call(t, 'GET', `/tweets/user/${ava._id}`)).body.data.tweets;
    expect(list.length).toBeGreaterThan(0);
    expect(list.some((tw: { image?: { url?: string } | null }) => tw.image?.url)).toBe(true);

    const [video] = (await call(t, 'GET', `/videos?userId=${ava._id}`)).body.data.data;
    const threads = (await call(t, 'GET', `/comments/video/${video._id}`)).body.data.comments;
    expect(threads.length).toBeGreaterThanOrEqual(2);
    expect(threads.some((c: { replies: number }) => c.replies === 2)).toBe(true);

    expect((await call(t, 'GET', '/playlists?userName=kofi')).body.data.playlists.length).toBeGreaterThan(0);
  });

  it('gives the videos with chapter lists chapters the player shows (at least three, each 10 s or longer)', () => {
    const listed = DEMO_VIDEOS.filter((v) => /^0:00 /m.test(v.description));
    expect(listed.length).toBeGreaterThanOrEqual(2);
    // A second short: the stored video may end a frame or an audio packet before the length asked for.
    for (const v of listed) expect(parseChapters(v.description, v.seconds - 1).length, v.title).toBeGreaterThanOrEqual(MIN_CHAPTERS);
  });

  it('mails none of the demo accounts about the seeded activity (their addresses reach no one)', async () => {
    // The events of the seeded comments, likes and subscriptions, and the mails they would queue.
    await createWorker(t.ctx, memoryLog()).drain();
    const [notified] = await rows<{ n: number }>(t, sql`SELECT count(*)::int AS n FROM notifications`);
    expect(notified!.n).toBeGreaterThan(0);
    expect(await readOutbox(t.dataDir)).toEqual([]);
    const [ava] = await rows<Pick<UserRow, 'id' | 'userName'>>(t, sql`SELECT id, user_name AS "userName" FROM users WHERE user_name = 'ava'`);
    const settings = await call(t, 'GET', '/notifications/settings', { as: ava });
    expect(Object.values(settings.body.data.settings)).toEqual(mailableTypes.map(() => 'off'));
  });

  it('generates every picture it lists with a distinct source, length and audience', async () => {
    expect(new Set(DEMO_VIDEOS.map((v) => v.source)).size).toBe(DEMO_VIDEOS.length);
    expect(new Set(DEMO_VIDEOS.map((v) => v.views)).size).toBe(DEMO_VIDEOS.length);
    expect(new Set(DEMO_VIDEOS.map((v) => v.seconds)).size).toBeGreaterThan(DEMO_VIDEOS.length / 2);
  });

  it('gives working logins', async () => {
    expect(result.logins).toHaveLength(4);
    const login = await t.app.inject({ method: 'POST', url: '/api/v1/auths/login', payload: { email: result.logins[0]!.email, password: DEMO_PASSWORD } });
    expect(login.statusCode).toBe(200);
  });

  it('refuses an instance that already has accounts, adding nothing', async () => {
    const other = await createTestApp();
    try {
      await createUser(other.ctx);
      await expect(seedDemo(other.ctx)).rejects.toBeInstanceOf(DemoRefusedError);
      expect((await call(other, 'GET', '/videos')).body.data.data).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
