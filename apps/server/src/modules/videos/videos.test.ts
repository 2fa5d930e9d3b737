import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { comments, likes, playlists, playlistVideos, subscriptions, users } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { originalKey } from '../../storage/media-keys.ts';
import {
  bearer,
  createTestApp,
  createUser,
  createVideo,
  multipartInject,
  TINY_PNG,
  type TestContext,
} from '../../../test/harness.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = async (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
const send = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string> = {}, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
/** Ids of a GET /videos answer: spec §7's "data list", at data.data for every search type. */
const ids = (res: { json(): { data: { data: { _id: string }[] } } }) => res.json().data.data.map((v) => v._id);
const ago = (days: number) => new Date(Date.now() - days * 86_400_000);

describe('GET /videos/{id}', () => {
  it('is 400 for a malformed id and 404 for a missing one', async () => {
    const bad = await get('/videos/not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, message: 'Invalid id' });
    const missing = await get(`/videos/${newId()}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Video not found');
  });

  it('hides unpublished and unfinished videos from everyone but the owner', async () => {
    const owner = await createUser(t.ctx);
    const other = await createUser(t.ctx);
    const draft = await createVideo(t.ctx, owner, { privacy: 'private' });
    const processing = await createVideo(t.ctx, owner, { status: 'processing' });
    for (const v of [draft, processing]) {
      expect((await get(`/videos/${v.id}`)).statusCode).toBe(404);
      expect((await get(`/videos/${v.id}?userId=${owner.id}`, await bearer(t.ctx, other))).statusCode).toBe(404);
      expect((await get(`/videos/${v.id}`, await bearer(t.ctx, owner))).statusCode).toBe(200);
    }
  });

  it('returns the spec fields with likeStatus and isSubscribed for the token viewer', async () => {
    const owner = await createUser(t.ctx, { fullName: 'Owner Person' });
    const viewer = await createUser(t.ctx);
    const id = newId();
    const v = await createVideo(t.ctx, owner, {
      id,
      likes: 1,
      commentsCount: 1,
      hlsKey: `videos/${id}/hls/master.m3u8`,
      storyboardKey: `videos/${id}/storyboard.vtt`,
      thumbnailKey: `videos/${id}/thumb-a.jpg`,
    });
    // Public: the files are at their public URLs, behind the video's current media token.
    const media = `/media/videos/${id}/pub-${v.mediaToken}`;
    await t.ctx.db.insert(likes).values({ id: newId(), userId: viewer.id, videoId: v.id, value: 1 });
    await t.ctx.db.insert(subscriptions).values({ subscriberId: viewer.id, channelId: owner.id });
    await t.ctx.db.update(users).set({ subscriberCount: 1 }).where(sql`id = ${owner.id}`);
    const res = await get(`/videos/${v.id}`, await bearer(t.ctx, viewer));
    expect(res.statusCode).toBe(200);
    expect(res.json().data.video).toMatchObject({
      _id: v.id,
      title: v.title,
      description: 'A test video',
      thumbnail: { url: `${media}/thumb-a.jpg` },
      poster: { url: `${media}/thumb-a.jpg` },
      videoFile: { publicId: v.id, url: `${media}/hls/master.m3u8` },
      storyboard: { url: `${media}/storyboard.vtt` },
      duration: 42,
      views: 0,
      isPublished: true,
      status: 'ready',
      likes: 1,
      dislikes: 0,
      likeStatus: 1,
      isSubscribed: true,
      subscribers: 1,
      noOfComments: 1,
      owner: { _id: owner.id, userName: owner.userName, fullName: 'Owner Person', avatar: null },
    });
    const anon = (await get(`/videos/${v.id}`)).json().data.video;
    expect([anon.likeStatus, anon.isSubscribed]).toEqual([0, false]);
  });
});

describe('GET /videos (home, search, filters, sorts, pages)', () => {
  let s: TestContext;
  let me: Awaited<ReturnType<typeof createUser>>;
  const v: Record<string, string> = {};
  beforeAll(async () => {
    s = await createTestApp();
    me = await createUser(s.ctx, { fullName: 'Grace Hopper', userName: 'gracehopper' });
    const other = await createUser(s.ctx, { fullName: 'Alan Turing', userName: 'alanturing' });
    const mk = async (key: string, over: Parameters<typeof createVideo>[2], owner = other) => {
      v[key] = (await createVideo(s.ctx, owner, over)).id;
    };
    await mk('pasta', { title: 'Cooking pasta at home', description: 'Italian dinner', views: 50, duration: 200, createdAt: ago(0.1) });
    await mk('tutorial', { title: 'TypeScript tutorial', description: 'Learn generics', views: 500, duration: 600, createdAt: ago(3) });
    await mk('long', { title: 'Long documentary', description: 'all about cooking history', views: 10, duration: 3600, createdAt: ago(20) });
    await mk('old', { title: 'Old upload', description: 'archive', views: 5, duration: 240, createdAt: ago(200) });
    await mk('ancient', { title: 'Ancient upload', description: 'archive', views: 1, duration: 900, createdAt: ago(800) });
    await mk('draft', { title: 'Cooking secret draft', privacy: 'private', views: 9999 });
    await mk('mine', { title: 'My cooking draft', privacy: 'private', views: 1 }, me);
    await mk('processing', { title: 'Cooking processing', status: 'processing', views: 9999 });
    const [pl] = await s.ctx.db.insert(playlists).values({ id: newId(), ownerId: other.id, name: 'Cooking favourites' }).returning();
    await s.ctx.db.insert(playlistVideos).values([
      { playlistId: pl!.id, videoId: v.draft!, position: 0 },
      { playlistId: pl!.id, videoId: v.pasta!, position: 1 },
    ]);
  });
  afterAll(() => s.close());
  const list = (qs: string, headers: Record<string, string> = {}) => s.app.inject({ method: 'GET', url: `/api/v1/videos?${qs}`, headers });

  it('rejects bad filters with 400', async () => {
    for (const qs of ['sortBy=best', 'type=user', 'duration=tiny', 'uploadDate=yesterday', 'limit=0', 'limit=101', 'page=0', 'cursor=@@@']) {
      const res = await list(qs);
      expect(res.statusCode, qs).toBe(400);
      expect(res.json().success).toBe(false);
    }
  });

  it('rejects a well-formed cursor whose values do not fit the sort with 400 (never a SQL error)', async () => {
    const cursor = (values: unknown[]) => Buffer.from(JSON.stringify(values)).toString('base64url');
    const id = v.pasta!;
    for (const qs of [
      `cursor=${cursor(['abc', id])}`,
      `cursor=${cursor([1.5, id])}`,
      `cursor=${cursor([10, 'not-a-uuid'])}`,
      `sortBy=uploadDate&cursor=${cursor(['yesterday', id])}`,
      `query=cooking&cursor=${cursor(['high', id])}`,
    ]) {
      const res = await list(qs);
      expect(res.statusCode, qs).toBe(400);
      expect(res.json().message).toBe('Invalid cursor');
    }
  });

  it('home: published, ready videos by views, 10 per page', async () => {
    const res = await list('');
    expect(res.statusCode).toBe(200);
    expect(ids(res)).toEqual([v.tutorial, v.pasta, v.long, v.old, v.ancient]);
    expect(res.json().data).toMatchObject({ page: 1, limit: 10, hasNextPage: false, nextCursor: null });
  });

  it('pages by page number and by cursor alike', async () => {
    const first = await list('limit=2');
    expect(ids(first)).toEqual([v.tutorial, v.pasta]);
    expect(first.json().data.hasNextPage).toBe(true);
    const byPage = await list('limit=2&page=2');
    const byCursor = await list(`limit=2&cursor=${first.json().data.nextCursor}`);
    expect(ids(byPage)).toEqual([v.long, v.old]);
    expect(ids(byCursor)).toEqual([v.long, v.old]);
    const last = await list(`limit=2&cursor=${byCursor.json().data.nextCursor}`);
    expect(ids(last)).toEqual([v.ancient]);
    expect(last.json().data.hasNextPage).toBe(false);
    const byDate1 = await list('limit=3&sortBy=uploadDate');
    const byDate2 = await list(`limit=3&sortBy=uploadDate&cursor=${byDate1.json().data.nextCursor}`);
    expect([...ids(byDate1), ...ids(byDate2)]).toEqual([v.pasta, v.tutorial, v.long, v.old, v.ancient]);
  });

  it('searches title (A) above description (B), stemmed, only what the viewer may see', async () => {
    expect(ids(await list('query=cooking'))).toEqual([v.pasta, v.long]);
    expect(ids(await list('query=cook', await bearer(s.ctx, me)))).toEqual(expect.arrayContaining([v.pasta, v.long, v.mine]));
    expect(ids(await list('query=generics'))).toEqual([v.tutorial]);
    expect(ids(await list('query=zebra'))).toEqual([]);
  });

  it('tolerates typos in titles', async () => {
    expect(ids(await list('query=tutoral'))).toEqual([v.tutorial]);
    expect(ids(await list('query=documentry'))).toEqual([v.long]);
  });

  it('sorts search results by views or upload date when asked', async () => {
    expect(ids(await list('query=archive&sortBy=views'))).toEqual([v.old, v.ancient]);
    expect(ids(await list('query=cooking&sortBy=uploadDate'))).toEqual([v.pasta, v.long]);
    expect(ids(await list('query=cooking&sortBy=views'))).toEqual([v.pasta, v.long]);
  });

  it('filters by duration buckets (short < 240 <= medium <= 900 < long)', async () => {
    expect(ids(await list('duration=short'))).toEqual([v.pasta]);
    expect(ids(await list('duration=medium'))).toEqual([v.tutorial, v.old, v.ancient]);
    expect(ids(await list('duration=long'))).toEqual([v.long]);
    expect(ids(await list('duration=any'))).toHaveLength(5);
  });

  it('filters by upload date, accepting the spec spelling thisWeak', async () => {
    expect(ids(await list('uploadDate=today'))).toEqual([v.pasta]);
    expect(ids(await list('uploadDate=thisWeak'))).toEqual([v.tutorial, v.pasta]);
    expect(ids(await list('uploadDate=thisWeek'))).toEqual([v.tutorial, v.pasta]);
    expect(ids(await list('uploadDate=thisMonth'))).toEqual([v.tutorial, v.pasta, v.long]);
    expect(ids(await list('uploadDate=thisYear'))).toEqual([v.tutorial, v.pasta, v.long, v.old]);
  });

  it('finds channels by user name or full name, with typos', async () => {
    const res = await list('type=channel&query=grace');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.data).toEqual([
      {
        _id: me.id,
        userName: 'gracehopper',
        fullName: 'Grace Hopper',
        avatar: null,
        coverImage: null,
        subscriberCount: 0,
        subscribers: 0,
        totalSubscribers: 0,
        videoCount: 0,
        isSubscribed: false,
        createdAt: expect.any(String),
      },
    ]);
    // The owner's own channel, and only it, carries the email; isSubscribed is the viewer's.
    const own = await list('type=channel&query=gracehopper', await bearer(s.ctx, me));
    expect(own.json().data.data[0]).toMatchObject({ _id: me.id, email: me.email });
    const asMe = await list('type=channel&query=alanturing', await bearer(s.ctx, me));
    expect(asMe.json().data.data[0]).not.toHaveProperty('email');
    await s.ctx.db.insert(subscriptions).values({ subscriberId: me.id, channelId: asMe.json().data.data[0]._id });
    expect((await list('type=channel&query=alanturing', await bearer(s.ctx, me))).json().data.data[0]).toMatchObject({ isSubscribed: true });
    expect(ids(await list('type=channel&query=turring'))).toHaveLength(1);
    expect(ids(await list('type=channel&query=alanturing'))).toHaveLength(1);
  });

  it('lists no account that never verified its email, with or without a query', async () => {
    const pending = await createUser(s.ctx, { fullName: 'Grace Unverified', userName: 'graceunverified', verified: false });
    expect(ids(await list('type=channel&query=grace'))).toEqual([me.id]);
    expect(ids(await list('type=channel&query=graceunverified'))).toEqual([]);
    expect(ids(await list('type=channel&limit=100'))).not.toContain(pending.id);
    await s.ctx.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, pending.id));
    expect(ids(await list('type=channel&query=graceunverified'))).toEqual([pending.id]);
    await s.ctx.db.delete(users).where(eq(users.id, pending.id));
  });

  it('finds playlists by name, counting only visible videos', async () => {
    const res = await list('type=playlist&query=favorites');
    expect(res.json().data.data).toEqual([
      expect.objectContaining({
        name: 'Cooking favourites',
        noOfVideos: 1,
        videoId: v.pasta,
        videoStatus: false,
        owner: { _id: expect.any(String), userName: 'alanturing', fullName: 'Alan Turing', avatar: null },
      }),
    ]);
  });
});

describe('GET /videos/{id}/similar', () => {
  it('is 404 for a hidden video and lists related videos first, never itself', async () => {
    const owner = await createUser(t.ctx);
    const hidden = await createVideo(t.ctx, owner, { privacy: 'private' });
    expect((await get(`/videos/${hidden.id}/similar`)).statusCode).toBe(404);
    const a = await createVideo(t.ctx, owner, { title: 'Sourdough bread baking' });
    const b = await createVideo(t.ctx, owner, { title: 'Baking bread for beginners', views: 0 });
    const popular = await createVideo(t.ctx, owner, { title: 'Unrelated cats', views: 10_000 });
    const res = await get(`/videos/${a.id}/similar?limit=50`);
    expect(res.statusCode).toBe(200);
    const got = res.json().data.videos.map((x: { _id: string }) => x._id);
    expect(got[0]).toBe(b.id);
    expect(got).toContain(popular.id);
    expect(got).not.toContain(a.id);
    expect(got).not.toContain(hidden.id);
  });
});

describe('POST /videos/{id}/views and GET /users/watch-history', () => {
  it('is 400/404 for bad or hidden videos, 401 for anonymous history', async () => {
    expect((await send('POST', '/videos/123/views')).statusCode).toBe(400);
    const owner = await createUser(t.ctx);
    const hidden = await createVideo(t.ctx, owner, { privacy: 'private' });
    expect((await send('POST', `/videos/${hidden.id}/views`)).statusCode).toBe(404);
    expect((await send('POST', `/videos/${newId()}/views`)).statusCode).toBe(404);
    const res = await get('/users/watch-history');
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Please login to view your watch history.');
    expect((await send('POST', `/videos/${hidden.id}/views`, {}, { position: -1 })).statusCode).toBe(400);
  });

  it('counts once per viewer per hour and records history newest first', async () => {
    const owner = await createUser(t.ctx);
    const viewer = await createUser(t.ctx);
    const auth = await bearer(t.ctx, viewer);
    const v1 = await createVideo(t.ctx, owner);
    const v2 = await createVideo(t.ctx, owner);
    const first = await send('POST', `/videos/${v1.id}/views`, auth, { position: 12.5 });
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({ counted: true, views: 1 });
    expect((await send('POST', `/videos/${v1.id}/views`, auth)).json().data).toEqual({ counted: false, views: 1 });
    // Anonymous viewers count by IP, separately from the logged-in one.
    expect((await send('POST', `/videos/${v1.id}/views`)).json().data).toEqual({ counted: true, views: 2 });
    expect((await send('POST', `/videos/${v1.id}/views`)).json().data).toEqual({ counted: false, views: 2 });
    // An hour later the same viewer counts again.
    await t.ctx.db.execute(sql`UPDATE video_views SET counted_at = now() - interval '61 minutes' WHERE video_id = ${v1.id}`);
    expect((await send('POST', `/videos/${v1.id}/views`, auth)).json().data.views).toBe(3);

    await send('POST', `/videos/${v2.id}/views`, auth);
    let history = (await get('/users/watch-history', auth)).json().data;
    expect(history.watchHistory.map((h: { _id: string }) => h._id)).toEqual([v2.id, v1.id]);
    expect(history.watchHistory[1]).toMatchObject({ position: 12.5, views: 3 });
    await send('POST', `/videos/${v1.id}/views`, auth);
    history = (await get('/users/watch-history?limit=1', auth)).json().data;
    expect(history.watchHistory.map((h: { _id: string }) => h._id)).toEqual([v1.id]);
    const next = (await get(`/users/watch-history?limit=1&cursor=${history.nextCursor}`, auth)).json().data;
    expect(next.watchHistory.map((h: { _id: string }) => h._id)).toEqual([v2.id]);
    // Unpublished since: gone from the list.
    await t.ctx.db.execute(sql`UPDATE videos SET privacy = 'private' WHERE id = ${v2.id}`);
    expect((await get('/users/watch-history', auth)).json().data.watchHistory).toHaveLength(1);
  });
});

describe('PATCH /videos/{id}, PATCH publish, DELETE', () => {
  it('answers 401, 400, 404 and 403 before changing anything', async () => {
    const owner = await createUser(t.ctx);
    const other = await createUser(t.ctx);
    const v = await createVideo(t.ctx, owner);
    for (const [method, url] of [
      ['PATCH', `/videos/${v.id}`],
      ['PATCH', `/videos/${v.id}/publish`],
      ['DELETE', `/videos/${v.id}`],
    ] as const) {
      expect((await send(method, url, {}, {})).statusCode, `${method} ${url}`).toBe(401);
      expect((await send(method, url.replace(v.id, 'nope'), await bearer(t.ctx, owner), {})).statusCode).toBe(400);
      expect((await send(method, url.replace(v.id, newId()), await bearer(t.ctx, owner), {})).statusCode).toBe(404);
      const forbidden = await send(method, url, await bearer(t.ctx, other), {});
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json().message).toBe('You can only change your own videos');
    }
    const blank = await send('PATCH', `/videos/${v.id}`, await bearer(t.ctx, owner), { title: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe('Title is required');
    const badPublish = await send('PATCH', `/videos/${v.id}/publish`, await bearer(t.ctx, owner), { isPublished: 'maybe' });
    expect(badPublish.statusCode).toBe(400);
    const form = new FormData();
    form.append('image', new Blob([Buffer.from('GIF89a not allowed')]), 'x.gif');
    const gif = await multipartInject(t.app, { method: 'PATCH', url: `/api/v1/videos/${v.id}`, headers: await bearer(t.ctx, owner), form });
    expect(gif.statusCode).toBe(400);
    expect(gif.json().message).toBe('Thumbnail must be a png or jpeg image');
    const big = new FormData();
    big.append('image', new Blob([Buffer.alloc(1024 * 1024 + 10, 1)]), 'x.png');
    const tooBig = await multipartInject(t.app, { method: 'PATCH', url: `/api/v1/videos/${v.id}`, headers: await bearer(t.ctx, owner), form: big });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().message).toBe('File size should not exceed 1MB');
    expect((await get(`/videos/${v.id}`)).json().data.video).toMatchObject({ title: v.title, thumbnail: null, isPublished: true });
  });

  it('updates only the fields sent and replaces the thumbnail file', async () => {
    const owner = await createUser(t.ctx);
    const auth = await bearer(t.ctx, owner);
    const v = await createVideo(t.ctx, owner);
    const form = new FormData();
    form.append('title', '  New title ');
    form.append('image', new Blob([TINY_PNG]), 'thumb.png');
    const res = await multipartInject(t.app, { method: 'PATCH', url: `/api/v1/videos/${v.id}`, headers: auth, form });
    expect(res.statusCode).toBe(200);
    const first = res.json().data.video;
    expect(first).toMatchObject({ title: 'New title', description: 'A test video' });
    expect(first.thumbnail.url).toMatch(new RegExp(`^/media/videos/${v.id}/pub-${v.mediaToken}/thumb-[\\w-]+\\.png$`));
    const firstKey = `videos/${v.id}/${first.thumbnail.url.split('/').pop()}`;
    expect(await t.ctx.storage.exists(firstKey)).toBe(true);
    const media = await t.app.inject({ method: 'GET', url: first.thumbnail.url });
    expect(media.headers['content-type']).toBe('image/png');

    const again = new FormData();
    again.append('image', new Blob([TINY_PNG]), 'thumb2.png');
    const second = (await multipartInject(t.app, { method: 'PATCH', url: `/api/v1/videos/${v.id}`, headers: auth, form: again })).json().data.video;
    expect(second.thumbnail.url).not.toBe(first.thumbnail.url);
    expect(second.title).toBe('New title');
    expect(await t.ctx.storage.exists(firstKey)).toBe(false);

    const json = await send('PATCH', `/videos/${v.id}`, auth, { description: 'Changed' });
    expect(json.json().data.video).toMatchObject({ title: 'New title', description: 'Changed' });
  });

  it('publishes, unpublishes and toggles', async () => {
    const owner = await createUser(t.ctx);
    const auth = await bearer(t.ctx, owner);
    const v = await createVideo(t.ctx, owner, { privacy: 'private' });
    const on = await send('PATCH', `/videos/${v.id}/publish`, auth, { isPublished: true });
    expect(on.json()).toMatchObject({ data: { video: { isPublished: true } }, message: 'Video published successfully' });
    expect((await get(`/videos/${v.id}`)).statusCode).toBe(200);
    expect((await send('PATCH', `/videos/${v.id}/publish`, auth, { isPublished: 'false' })).json().data.video.isPublished).toBe(false);
    expect((await send('PATCH', `/videos/${v.id}/publish`, auth, { isPublished: '1' })).json().data.video.isPublished).toBe(true);
    expect((await send('PATCH', `/videos/${v.id}/publish`, auth, { isPublished: 0 })).json().data.video.isPublished).toBe(false);
    const toggled = await send('PATCH', `/videos/${v.id}/publish`, auth);
    expect(toggled.json()).toMatchObject({ data: { video: { isPublished: true } } });
  });

  it('deletes the video, its rows and every stored file', async () => {
    const owner = await createUser(t.ctx);
    const fan = await createUser(t.ctx);
    const auth = await bearer(t.ctx, owner);
    const id = newId();
    const v = await createVideo(t.ctx, owner, { id, hlsKey: `videos/${id}/hls/master.m3u8`, sourceKey: originalKey(id) });
    await t.ctx.storage.putBuffer(`videos/${v.id}/hls/master.m3u8`, Buffer.from('#EXTM3U'));
    await t.ctx.storage.putBuffer(originalKey(id), Buffer.from('x'));
    await t.ctx.db.insert(likes).values({ id: newId(), userId: fan.id, videoId: v.id, value: 1 });
    await t.ctx.db.insert(comments).values({ id: newId(), videoId: v.id, ownerId: fan.id, content: 'hi' });
    await send('POST', `/videos/${v.id}/views`, await bearer(t.ctx, fan));
    const res = await send('DELETE', `/videos/${v.id}`, auth);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Video deleted successfully');
    expect((await get(`/videos/${v.id}`, auth)).statusCode).toBe(404);
    const left = await queryRows<{ n: number }>(
      t.ctx.db,
      sql`SELECT ((SELECT count(*) FROM likes WHERE video_id = ${v.id}) + (SELECT count(*) FROM comments WHERE video_id = ${v.id})
        + (SELECT count(*) FROM watch_history WHERE video_id = ${v.id}) + (SELECT count(*) FROM video_views WHERE video_id = ${v.id}))::int AS n`,
    );
    expect(left[0]!.n).toBe(0);
    expect(await t.ctx.storage.exists(originalKey(id))).toBe(false);
    expect(await t.ctx.storage.exists(`videos/${v.id}/hls/master.m3u8`)).toBe(false);
  });
});

describe('GET /users/video/{userName}', () => {
  it('is 404 for an unknown channel; owner sees all, others published and ready only', async () => {
    expect((await get('/users/video/nobody-here')).statusCode).toBe(404);
    const owner = await createUser(t.ctx);
    const pub = await createVideo(t.ctx, owner);
    const draft = await createVideo(t.ctx, owner, { privacy: 'private' });
    const failed = await createVideo(t.ctx, owner, { status: 'failed' });
    const anon = await get(`/users/video/${owner.userName}`);
    expect(anon.statusCode).toBe(200);
    const videoIds = (res: typeof anon) => res.json().data.videos.map((v: { _id: string }) => v._id);
    expect(videoIds(anon)).toEqual([pub.id]);
    const own = await get(`/users/video/@${owner.userName}`, await bearer(t.ctx, owner));
    expect(videoIds(own).sort()).toEqual([pub.id, draft.id, failed.id].sort());
  });
});

describe('dashboard', () => {
  it('is 401 when anonymous', async () => {
    for (const url of ['/dashboard/channel-stats', '/dashboard/channel-videos']) {
      const res = await get(url);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('Please login to view your channel.');
    }
  });

  it('sums views, likes and comments over the channel and lists all its videos', async () => {
    const owner = await createUser(t.ctx);
    await t.ctx.db.update(users).set({ subscriberCount: 3 }).where(sql`id = ${owner.id}`);
    const a = await createVideo(t.ctx, owner, { views: 10, likes: 2, commentsCount: 4 });
    const b = await createVideo(t.ctx, owner, { views: 5, likes: 1, commentsCount: 0, privacy: 'private', status: 'processing', progress: 0.5 });
    await createVideo(t.ctx, await createUser(t.ctx), { views: 1000 });
    const auth = await bearer(t.ctx, owner);
    const stats = await get('/dashboard/channel-stats', auth);
    expect(stats.json().data).toEqual({ stats: { totalViews: 15, totalSubscribers: 3, totalLikes: 3, totalComments: 4, totalVideos: 2 } });
    const videos = (await get('/dashboard/channel-videos', auth)).json().data.videos;
    expect(videos.map((x: { _id: string }) => x._id)).toEqual([b.id, a.id]);
    expect(videos[0]).toMatchObject({ status: 'processing', progress: 0.5, isPublished: false });
  });
});
