import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counterMismatches } from '../../test/invariants.ts';
import { call } from '../../test/http.ts';
import { createTestApp, createUser, type TestContext } from '../../test/harness.ts';
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
    expect(lines).toEqual(expect.arrayContaining(['Transcoded 1/2', 'Transcoded 2/2']));
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
