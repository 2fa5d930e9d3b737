import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, createVideo, lastMailLink, makeClip, memoryLog, TEST_PASSWORD, type TestContext } from '../test/harness.ts';
import { createWorker } from './worker.ts';

/**
 * A client written from the product spec alone, over real HTTP: it sends a Bearer header on every
 * call (`Bearer undefined` before login, an expired token after a while), a JSON content type on
 * every call that is not multipart, refreshes only on 401 'jwt expired' (spec §4), numbers upload
 * chunks from 1 with `isLastChunk=1`, and reads only the fields of spec §7's "Response use" column.
 * Each `it` walks some §7 rows; together they cover every row (docs/api-compatibility.md).
 */

// The envelope as a spec client sees it: it reads named fields, nothing is typed for it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = { statusCode: number; message: string; data: any };
interface Sent {
  who: string;
  method: string;
  path: string;
  status: number;
  authorization: string | null;
  contentType: string | null;
}

let base = '';
const sent: Sent[] = [];

class SpecClient {
  accessToken: string | undefined;
  refreshToken: string | undefined;
  user: { _id: string; userName: string; fullName: string; email: string } | undefined;
  refreshes = 0;

  constructor(readonly name: string) {}

  /** One call; on 401 'jwt expired' a single refresh and a retry, any other 401 clears the tokens (spec §4). */
  async call(method: string, url: string, payload?: object | FormData): Promise<Body> {
    const first = await this.send(method, url, payload);
    if (first.statusCode === 401 && first.message === 'jwt expired') {
      await this.refresh();
      return this.send(method, url, payload);
    }
    if (first.statusCode === 401) this.accessToken = this.refreshToken = undefined;
    return first;
  }

  /** POST auths/refresh-token with the refresh token in the body, and the (expired) Bearer as always. */
  async refresh(): Promise<void> {
    this.refreshes += 1;
    const res = await this.send('POST', '/auths/refresh-token', { refreshToken: this.refreshToken });
    if (res.statusCode !== 200) {
      this.accessToken = this.refreshToken = undefined;
      throw new Error('Error refreshing token');
    }
    this.accessToken = res.data.accessToken;
    this.refreshToken = res.data.refreshToken;
  }

  async login(email: string, password: string): Promise<Body> {
    const res = await this.call('POST', '/auths/login', { email, password });
    this.accessToken = res.data.accessToken;
    this.refreshToken = res.data.refreshToken;
    this.user = res.data.user;
    return res;
  }

  /** "15 minutes later": the access token the client holds has expired. */
  async expire(t: TestContext): Promise<string> {
    this.accessToken = await t.ctx.tokens.sign({ id: this.user!._id, userName: this.user!.userName }, -60);
    return this.accessToken;
  }

  private async send(method: string, url: string, payload?: object | FormData): Promise<Body> {
    const multipart = payload instanceof FormData;
    const headers: Record<string, string> = { Authorization: `Bearer ${this.accessToken}` };
    if (!multipart) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${base}${url}`, {
      method,
      headers,
      body: multipart ? payload : payload === undefined ? undefined : JSON.stringify(payload),
    });
    sent.push({ who: this.name, method, path: url, status: res.status, authorization: headers.Authorization!, contentType: headers['Content-Type'] ?? null });
    return (await res.json()) as Body;
  }
}

/** A multipart body; files are named after their type, as a browser's file input would send them. */
const form = (fields: Record<string, string | Blob>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === 'string') f.append(k, v);
    else f.append(k, v, v.type === 'video/mp4' ? 'clip.mp4' : 'image.png');
  }
  return f;
};
const PASSWORD = 'first-secret';

/** The token of a mailed link; mail may leave after the answer, so it is waited for. */
async function mailed(kind: 'email-verification' | 'password-reset', to: string, after?: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const token = await lastMailLink(t.dataDir, kind, to).catch(() => undefined);
    if (token && token !== after) return token;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no ${kind} mail to ${to}`);
}

let t: TestContext;
let tmp: string;
let clip: Buffer;
let png: Blob;
const ada = new SpecClient('ada');
const bob = new SpecClient('bob');
const visitor = new SpecClient('visitor');
/** A published, ready video of ada's, put in the database (the upload's own transcode is its own step). */
let glacier: string;
let uploaded: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1`;
  tmp = await mkdtemp(path.join(os.tmpdir(), 'glimpse-spec-client-'));
  clip = await readFile(await makeClip(path.join(tmp, 'clip.mp4'), { width: 320, height: 240, seconds: 3 }));
  png = new Blob([await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2266aa' } }).png().toBuffer()], { type: 'image/png' });
});
afterAll(async () => {
  await t.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('a spec client, unchanged', () => {
  it('registers, verifies the email, logs in and is logged in (register, email-verification, login, users/me)', async () => {
    for (const [client, fullName] of [
      [ada, 'Ada Spec'],
      [bob, 'Bob Spec'],
    ] as const) {
      const email = `${client.name}.spec@example.com`;
      const registered = await client.call('POST', '/auths/register', { fullName, email, password: PASSWORD });
      expect(registered.statusCode).toBe(201);
      const verified = await client.call('GET', `/auths/email-verification?token=${await mailed('email-verification', email)}`);
      expect(verified.statusCode).toBe(200);
      const login = await client.login(email, PASSWORD);
      expect(login.message).toBe('Logged in successfully');
      expect([typeof client.accessToken, typeof client.refreshToken, client.user?.email]).toEqual(['string', 'string', email]);
      expect((await client.call('GET', '/users/me')).data.user._id).toBe(client.user!._id);
    }
    // Every call so far went out before any login with 'Bearer undefined' at first.
    expect(sent[0]!.authorization).toBe('Bearer undefined');
  });

  it("refreshes with the expired token still in the header, once, on 'jwt expired' (refresh-token)", async () => {
    const expired = await ada.expire(t);
    const oldRefresh = ada.refreshToken;
    const me = await ada.call('GET', '/users/me');
    expect(me.data.user.userName).toBe(ada.user!.userName);
    expect(ada.refreshes).toBe(1);
    const refresh = sent.filter((s) => s.path === '/auths/refresh-token').at(-1)!;
    expect(refresh).toMatchObject({ status: 200, authorization: `Bearer ${expired}` });
    expect(ada.refreshToken).not.toBe(oldRefresh);
  });

  it('edits the profile and the channel images, and sees its own channel (users/me, avatar, cover-image, users/channel)', async () => {
    const edited = await ada.call('PATCH', '/users/me', { _id: ada.user!._id, fullName: 'Ada Lovelace', userName: 'adaspec' });
    expect([edited.data.user.userName, edited.data.user.fullName]).toEqual(['adaspec', 'Ada Lovelace']);
    ada.user = { ...ada.user!, userName: edited.data.user.userName, fullName: edited.data.user.fullName };
    expect((await ada.call('PATCH', '/users/avatar', form({ image: png }))).statusCode).toBe(200);
    expect((await ada.call('PATCH', '/users/cover-image', form({ image: png }))).statusCode).toBe(200);
    const channel = (await ada.call('GET', '/users/channel/@adaspec')).data;
    expect(channel).toMatchObject({ _id: ada.user!._id, userName: 'adaspec', fullName: 'Ada Lovelace', email: ada.user!.email, isSubscribed: false });
    expect([channel.subscriberCount, channel.totalSubscribers, channel.subscribers, channel.videoCount]).toEqual([0, 0, 0, 0]);
    expect(channel.avatar.url).toMatch(/^\/media\//);
    expect(channel.coverImage.url).toMatch(/^\/media\//);
  });

  it('uploads in 3 MB-style chunks numbered from 1, the last flagged isLastChunk=1 with title, description and image (POST videos)', async () => {
    const total = 3;
    const size = Math.ceil(clip.length / total);
    for (let chunkNumber = 1; chunkNumber <= total; chunkNumber++) {
      const isLast = chunkNumber === total;
      const body = form({
        video: new Blob([clip.subarray((chunkNumber - 1) * size, chunkNumber * size)], { type: 'video/mp4' }),
        isLastChunk: isLast ? '1' : '0',
        ...(isLast ? { title: 'Spec upload', description: 'Sent the way the spec says', image: png } : {}),
      });
      const res = await ada.call('POST', `/videos?uniqueId=spec-upload-1&chunkNumber=${chunkNumber}&totalChunks=${total}`, body);
      expect(res.statusCode, res.message).toBe(isLast ? 201 : 200);
    }
    // Uploaded videos are private until published (spec §4); the dashboard lists them.
    const mine = (await ada.call('GET', '/dashboard/channel-videos')).data.videos;
    const video = mine.find((v: { title: string }) => v.title === 'Spec upload');
    expect(video).toMatchObject({ isPublished: false, description: 'Sent the way the spec says' });
    expect(video.thumbnail.url).toMatch(/^\/media\//);
    uploaded = video._id;
  });

  it('edits and publishes the upload from the dashboard (PATCH videos/{id}, publish, channel-stats)', async () => {
    const edit = await ada.call('PATCH', `/videos/${uploaded}`, form({ title: 'Spec upload, edited', description: 'Changed', image: png }));
    expect(edit.statusCode).toBe(200);
    expect((await ada.call('PATCH', `/videos/${uploaded}/publish`, { isPublished: true })).statusCode).toBe(200);
    const mine = (await ada.call('GET', '/dashboard/channel-videos')).data.videos;
    expect(mine.find((v: { _id: string }) => v._id === uploaded)).toMatchObject({ title: 'Spec upload, edited', description: 'Changed', isPublished: true });
    const stats = (await ada.call('GET', '/dashboard/channel-stats')).data.stats;
    expect(stats).toMatchObject({ totalViews: 0, totalSubscribers: 0, totalLikes: 0, totalComments: 0 });
  });

  it('plays the upload once transcoded: GET videos/{id} with its videoFile for a visitor, and its progressive mp4 by videoFile.publicId with a Range, its poster without .mp4', async () => {
    await createWorker(t.ctx, memoryLog(), { backoffMs: 0 }).drain();
    const video = (await visitor.call('GET', `/videos/${uploaded}`)).data.video;
    expect(video).toMatchObject({ _id: uploaded, title: 'Spec upload, edited', isPublished: true, videoFile: { publicId: uploaded } });
    expect((await fetch(`${base.replace('/api/v1', '')}${video.videoFile.url}`)).status).toBe(200);
    const mp4 = await fetch(`${base}/videos/video/${video.videoFile.publicId}.mp4`, { headers: { authorization: 'Bearer undefined', range: 'bytes=0-1023' } });
    expect([mp4.status, mp4.headers.get('content-type'), mp4.headers.get('content-range')]).toEqual([206, 'video/mp4', expect.stringMatching(/^bytes 0-1023\/\d+$/)]);
    const head = Buffer.from(await mp4.arrayBuffer());
    // faststart: the index (moov) comes before the media, so a player starts at once.
    expect(head.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(head.indexOf('moov')).toBeGreaterThan(0);
    expect(head.indexOf('moov')).toBeLessThan(1024);

    // The same id without `.mp4` is the client's `<video poster>`: the poster image, under the same rule.
    const poster = await fetch(`${base}/videos/video/${video.videoFile.publicId}`, { headers: { authorization: 'Bearer undefined' } });
    expect([poster.status, poster.headers.get('content-type'), poster.headers.get('cache-control')]).toEqual([200, expect.stringMatching(/^image\//), 'private, no-store']);
    expect(await sharp(Buffer.from(await poster.arrayBuffer())).metadata()).toMatchObject({ width: expect.any(Number), height: expect.any(Number) });
    const draft = (await createVideo(t.ctx, { id: ada.user!._id }, { privacy: 'private', thumbnailKey: `videos/${uploaded}/poster.jpg` })).id;
    const hidden = await fetch(`${base}/videos/video/${draft}`, { headers: { authorization: 'Bearer undefined' } });
    expect([hidden.status, ((await hidden.json()) as Body).message]).toEqual([404, 'Video not found']);
    const bare = (await createVideo(t.ctx, { id: ada.user!._id })).id;
    expect(await visitor.call('GET', `/videos/video/${bare}`)).toMatchObject({ statusCode: 404, message: 'This video has no poster yet' });
    expect(await visitor.call('GET', `/videos/video/${bare}.jpg`)).toMatchObject({ statusCode: 400, message: 'Invalid video file' });
  });

  it('browses with an expired token, which public reads ignore: no refresh (videos, videos/{id}, users/channel, users/video)', async () => {
    glacier = (await createVideo(t.ctx, { id: ada.user!._id }, { title: 'Glacier walk at dawn', description: 'Ice and light', duration: 200, views: 3 })).id;
    await bob.expire(t);
    const home = await bob.call('GET', '/videos?page=1&limit=10&sortBy=views&type=video&duration=any&uploadDate=anytime');
    expect(home.data.data.map((v: { _id: string }) => v._id)).toContain(glacier);
    const search = await bob.call('GET', '/videos?page=1&limit=10&query=glacier&sortBy=relevance&type=video&duration=short&uploadDate=thisWeak');
    expect(search.data.data[0]).toMatchObject({ _id: glacier, title: 'Glacier walk at dawn', views: 3, duration: 200 });
    const channels = await bob.call('GET', '/videos?page=1&limit=10&query=ada&type=channel');
    expect(channels.data.data[0]).toMatchObject({ _id: ada.user!._id, userName: 'adaspec', subscriberCount: 0, totalSubscribers: 0, subscribers: 0, isSubscribed: false });
    expect(channels.data.data[0]).not.toHaveProperty('email');

    const watch = (await bob.call('GET', `/videos/${glacier}?userId=${bob.user!._id}`)).data.video;
    expect(watch).toMatchObject({ _id: glacier, title: 'Glacier walk at dawn', description: 'Ice and light', views: 3, likes: 0, dislikes: 0, likeStatus: 0 });
    expect(watch).toMatchObject({ isSubscribed: false, subscribers: 0, noOfComments: 0, videoFile: { publicId: glacier } });
    expect(watch.owner).toMatchObject({ _id: ada.user!._id, userName: 'adaspec', fullName: 'Ada Lovelace' });

    const channel = (await bob.call('GET', '/users/channel/adaspec')).data;
    expect(channel).toMatchObject({ userName: 'adaspec', isSubscribed: false });
    expect(channel).not.toHaveProperty('email');
    const videos = (await bob.call('GET', '/users/video/adaspec')).data.videos;
    expect(videos.map((v: { _id: string }) => v._id)).toContain(glacier);
    expect(bob.refreshes).toBe(0);
  });

  it('subscribes, watches, likes; sees subscriptions, history and liked videos (toggle, subscriptions, views, likes)', async () => {
    // Login-only: the expired token answers 'jwt expired', the client refreshes and retries.
    const toggled = await bob.call('POST', `/subscriptions/toggle/${ada.user!._id}`);
    expect(toggled.message).toBe('Subscribed successfully');
    expect(bob.refreshes).toBe(1);
    const feed = (await bob.call('GET', '/subscriptions')).data.subscriptions;
    expect(feed[0]).toMatchObject({ _id: glacier, title: 'Glacier walk at dawn' });
    expect(feed[0].channel).toMatchObject({ _id: ada.user!._id, userName: 'adaspec', subscriberCount: 1, totalSubscribers: 1, subscribers: 1, isSubscribed: true });

    expect((await bob.call('POST', `/videos/${glacier}/views`)).statusCode).toBe(200);
    expect((await bob.call('GET', `/videos/${glacier}`)).data.video).toMatchObject({ views: 4, isSubscribed: true, subscribers: 1 });
    const history = (await bob.call('GET', '/users/watch-history')).data.watchHistory;
    expect(history[0]._id).toBe(glacier);

    expect((await bob.call('POST', `/likes/video/${glacier}/like`)).statusCode).toBe(200);
    const liked = (await bob.call('GET', '/likes/video')).data.likedVideos;
    expect(liked[0].video).toMatchObject({ _id: glacier, title: 'Glacier walk at dawn' });
  });

  it('comments, replies, reacts, edits and deletes (comments rows, comment likes)', async () => {
    const top = await bob.call('POST', `/comments/video/${glacier}`, { content: 'Lovely light' });
    expect(top.data).toMatchObject({ content: 'Lovely light', _id: expect.any(String), createdAt: expect.any(String), updatedAt: expect.any(String) });
    const reply = await ada.call('POST', `/comments/video/${glacier}/${top.data._id}`, { content: 'Thank you' });
    expect(reply.data._id).toEqual(expect.any(String));

    const list = (await bob.call('GET', `/comments/video/${glacier}?page=1&limit=10&userId=${bob.user!._id}`)).data.comments;
    expect(list[0]).toMatchObject({ _id: top.data._id, content: 'Lovely light', replies: 1, likes: 0, dislikes: 0, likeStatus: 0 });
    expect(list[0].owner).toMatchObject({ _id: bob.user!._id, userName: bob.user!.userName, fullName: 'Bob Spec' });
    const replies = (await bob.call('GET', `/comments/video/${glacier}/${top.data._id}?userId=${bob.user!._id}&page=1&limit=10`)).data.comments;
    expect(replies.map((c: { content: string }) => c.content)).toEqual(['Thank you']);

    expect((await ada.call('POST', `/likes/comment/${top.data._id}/like`)).statusCode).toBe(200);
    expect((await ada.call('POST', `/likes/comment/${top.data._id}/dislike`)).statusCode).toBe(200);
    const edited = await bob.call('PATCH', `/comments/${top.data._id}`, { content: 'Lovely light!' });
    expect(edited.message).toBe('Playlist updated successfully');
    const removed = await bob.call('DELETE', `/comments/${top.data._id}`);
    expect(removed.data.deletedCount).toBe(2);
  });

  it('tweets: posts, edits, reads them shown reversed, comments and deletes (tweets rows)', async () => {
    const posted: string[] = [];
    for (const content of ['first tweet', 'second tweet', 'third tweet']) {
      const res = await ada.call('POST', '/tweets', form(content === 'first tweet' ? { content, image: png } : { content }));
      expect(res.data).toMatchObject({ _id: expect.any(String), content, createdAt: expect.any(String), updatedAt: expect.any(String) });
      expect(res.data.image === null || typeof res.data.image.url === 'string').toBe(true);
      posted.push(res.data._id);
    }
    expect((await ada.call('PATCH', `/tweets/${posted[1]}`, form({ content: 'second tweet, edited' }))).message).toBe('Tweet updated successfully');

    const tweets = (await bob.call('GET', `/tweets/user/${ada.user!._id}/${bob.user!._id}`)).data.tweets;
    // Spec §7: "tweets, shown reversed": the newest ends up on top.
    expect([...tweets].reverse().map((x: { content: string }) => x.content)).toEqual(['third tweet', 'second tweet, edited', 'first tweet']);
    expect(tweets[0]).toMatchObject({ likes: 0, dislikes: 0, comments: 0, likeStatus: 0, owner: { _id: ada.user!._id, userName: 'adaspec' } });

    expect((await bob.call('POST', `/likes/tweet/${posted[0]}/like`)).statusCode).toBe(200);
    await bob.call('POST', `/comments/tweet/${posted[0]}`, { content: 'Nice one' });
    const one = (await bob.call('GET', `/tweets/${posted[0]}/${bob.user!._id}`)).data.tweets[0];
    expect(one).toMatchObject({ _id: posted[0], content: 'first tweet', likes: 1, likeStatus: 1, comments: 1 });
    const comments = (await bob.call('GET', `/comments/tweet/${posted[0]}?userId=${bob.user!._id}&page=1&limit=10`)).data.comments;
    expect(comments.map((c: { content: string }) => c.content)).toEqual(['Nice one']);
    expect((await ada.call('DELETE', `/tweets/${posted[0]}`)).data.deletedCount).toBe(1);
  });

  it('keeps playlists: create, list with videoStatus, open, add, remove, rename, find, delete (playlists rows)', async () => {
    const created = (await bob.call('POST', '/playlists', { name: 'Cold places', videoId: glacier })).data.playlist;
    expect(created).toMatchObject({ name: 'Cold places', noOfVideos: 1, videoId: glacier });
    const mine = (await bob.call('GET', `/playlists?userName=${bob.user!.userName}&videoId=${glacier}`)).data.playlists;
    expect(mine[0]).toMatchObject({ _id: created._id, name: 'Cold places', videoStatus: true, noOfVideos: 1, owner: { userName: bob.user!.userName } });
    const second = (await createVideo(t.ctx, { id: ada.user!._id }, { title: 'Glacier at dusk' })).id;
    expect((await bob.call('POST', `/playlists/${created._id}/${second}`)).statusCode).toBe(200);
    const opened = (await bob.call('GET', `/playlists/${created._id}`)).data.playlist;
    expect(opened.videos.map((v: { _id: string }) => v._id)).toEqual([glacier, second]);
    expect((await bob.call('DELETE', `/playlists/${created._id}/${second}`)).statusCode).toBe(200);
    expect((await bob.call('PATCH', `/playlists/${created._id}`, { name: 'Icy places' })).message).toBe('Playlist updated successfully');
    const found = (await visitor.call('GET', '/videos?page=1&limit=10&query=icy&type=playlist')).data.data;
    expect(found[0]).toMatchObject({ _id: created._id, name: 'Icy places', noOfVideos: 1, videoId: glacier, owner: { userName: bob.user!.userName } });
    expect((await bob.call('DELETE', `/playlists/${created._id}`)).message).toBe('Playlist deleted successfully');
  });

  it('searches with the query encoded twice, as encodeURIComponent and then its HTTP library send it, for every type and the related videos (GET videos)', async () => {
    const twice = (text: string) => encodeURIComponent(encodeURIComponent(text));
    const title = 'Northern lights over Tromsø';
    const description = [
      'A clear night above the fjord: the aurora came out just after ten and stayed for an hour.',
      '',
      'Shot on a tripod, 4 second exposures, edited into a time lapse.',
      'Music: none, the wind only. Thanks for watching, and subscribe for the next trip north.',
    ].join('\n');
    const tromso = (await createVideo(t.ctx, { id: ada.user!._id }, { title, description, views: 7 })).id;
    const abisko = (await createVideo(t.ctx, { id: ada.user!._id }, { title: 'Northern lights in Abisko', views: 2 })).id;
    const list = (await bob.call('POST', '/playlists', { name: 'Northern lights trips', videoId: tromso })).data.playlist;
    const ids = (res: Body) => res.data.data.map((x: { _id: string }) => x._id);

    const videos = await visitor.call('GET', `/videos?page=1&limit=10&query=${twice('northern lights')}&sortBy=relevance&type=video&duration=any&uploadDate=anytime`);
    expect(sent.at(-1)!.path).toContain('query=northern%2520lights');
    expect(ids(videos)).toEqual([tromso, abisko]);
    const playlists = await visitor.call('GET', `/videos?page=1&limit=10&query=${twice('northern lights')}&type=playlist`);
    expect(ids(playlists)).toEqual([list._id]);
    const channels = await visitor.call('GET', `/videos?page=1&limit=10&query=${twice('Ada Lovelace')}&type=channel`);
    expect(ids(channels)).toEqual([ada.user!._id]);
    // Encoded once (our web app, a client that encodes once) finds the same; a % that encodes nothing is searched as typed.
    expect(ids(await visitor.call('GET', `/videos?limit=10&query=${encodeURIComponent('northern lights')}`))).toEqual([tromso, abisko]);
    expect((await visitor.call('GET', `/videos?limit=10&query=${twice('100% northern')}`)).statusCode).toBe(200);

    // The watch page's related videos: the title and the description (line breaks and all, over 200 characters) as the query.
    const related = `${title} ${description}`;
    expect([related.length > 200, related.includes('\n')]).toEqual([true, true]);
    const sidebar = await visitor.call('GET', `/videos?limit=10&query=${twice(related)}`);
    expect(sidebar.statusCode, sidebar.message).toBe(200);
    // A passage matches any of its words, best first: the video itself, then the other northern lights.
    expect(ids(sidebar).slice(0, 2)).toEqual([tromso, abisko]);
    // Only what is truly malformed is refused: a control character, encoded twice or not.
    const nul = await visitor.call('GET', `/videos?limit=10&query=${twice('north\u0000ern')}`);
    expect([nul.statusCode, nul.message]).toEqual([400, 'query must not contain control characters']);
    await bob.call('DELETE', `/playlists/${list._id}`);
  });

  it("lists the channels a channel subscribes to, each a channel object (subscriptions/channel)", async () => {
    const list = (await bob.call('GET', `/subscriptions/channel/${bob.user!._id}?userId=${bob.user!._id}`)).data.subscribedChannels;
    expect(list.map((s: { channel: { _id: string } }) => s.channel._id)).toEqual([ada.user!._id]);
    expect(list[0].channel).toMatchObject({ userName: 'adaspec', fullName: 'Ada Lovelace', subscriberCount: 1, totalSubscribers: 1, subscribers: 1, isSubscribed: true });
    expect(list[0].channel.avatar.url).toMatch(/^\/media\//);
    const stats = (await ada.call('GET', '/dashboard/channel-stats')).data.stats;
    expect(stats).toMatchObject({ totalSubscribers: 1, totalLikes: 1 });
  });

  it('answers an anonymous client the spec 401 messages (Bearer undefined)', async () => {
    const cases: [string, string, string][] = [
      ['POST', `/subscriptions/toggle/${ada.user!._id}`, 'Please login to subscribe'],
      ['POST', `/likes/tweet/${glacier}/like`, 'Please login to like/dislike'],
      ['POST', `/comments/video/${glacier}`, 'Please login to comment'],
      ['GET', '/playlists', 'Please login to view playlists'],
      ['POST', '/playlists', 'Please login to create a playlist'],
    ];
    for (const [method, url, message] of cases) {
      const res = await visitor.call(method, url, method === 'POST' && url === '/playlists' ? { name: 'x' } : undefined);
      expect(res, url).toMatchObject({ statusCode: 401, message });
    }
  });

  it('changes, forgets and resets the password, deletes a video and logs out (password rows, DELETE videos/{id}, logout)', async () => {
    const changed = await ada.call('PATCH', '/users/password', { email: ada.user!.email, curPassword: PASSWORD, newPassword: 'second-secret', confirmPassword: 'second-secret' });
    expect(changed.message).toBe('Password updated successfully');

    const before = await lastMailLink(t.dataDir, 'password-reset', ada.user!.email).catch(() => undefined);
    const forgot = await visitor.call('POST', '/auths/forgot-password-mail', { email: ada.user!.email });
    expect(forgot.message).toBe('A reset password link has been sent to your given email ID. Please reset the password from there.');
    // The mail leaves off the request path: the worker sends it.
    await createWorker(t.ctx, memoryLog()).drain();
    const token = await mailed('password-reset', ada.user!.email, before);
    const reset = await visitor.call('POST', '/auths/password-reset', { token, newPassword: 'third-secret', confirmPassword: 'third-secret' });
    expect(reset.message).toBe('Password reset successfully');

    // A reset ends every session: the next refresh fails and the client clears its tokens.
    await ada.expire(t);
    await expect(ada.call('GET', '/users/me')).rejects.toThrow('Error refreshing token');
    expect(ada.accessToken).toBeUndefined();
    await ada.login(ada.user!.email, 'third-secret');

    expect((await ada.call('DELETE', `/videos/${uploaded}`)).message).toBe('Video deleted successfully');
    expect((await ada.call('DELETE', `/videos/${glacier}`)).message).toBe('Video deleted successfully');
    const out = await ada.call('POST', '/auths/logout', { refreshToken: ada.refreshToken });
    expect(out.message).toBe('Logged out successfully');
  });

  it('ends sessions at once: a logout, a password change (the other sessions) and a reset (all) refuse their access tokens with 401 right away (logout, password, password-reset)', async () => {
    const cyd = await createUser(t.ctx, { fullName: 'Cyd Spec' });
    const [phone, laptop, tablet] = ['phone', 'laptop', 'tablet'].map((device) => new SpecClient(`cyd-${device}`));
    for (const device of [phone!, laptop!, tablet!]) await device.login(cyd.email, TEST_PASSWORD);
    /** A call with the access token the device held (a spec client forgets it after a 401). */
    const using = async (device: SpecClient, token: string, method = 'GET', url = '/users/me') => {
      device.accessToken = token;
      return device.call(method, url);
    };
    const me = (device: SpecClient, token: string) => using(device, token);
    const tokens = { phone: phone!.accessToken!, laptop: laptop!.accessToken!, tablet: tablet!.accessToken! };
    const ended = { statusCode: 401, message: 'Your session has ended. Please log in again.' };
    const works = { statusCode: 200, data: { user: { _id: cyd.id } } };

    // The spec shows no logout payload: the phone sends its Bearer only.
    expect((await phone!.call('POST', '/auths/logout')).message).toBe('Logged out successfully');
    expect(await me(phone!, tokens.phone)).toMatchObject(ended);
    // Any 401 but 'jwt expired' makes a spec client forget its tokens (spec §4).
    expect([phone!.accessToken, phone!.refreshToken]).toEqual([undefined, undefined]);
    expect(await me(laptop!, tokens.laptop)).toMatchObject(works);
    expect(await me(tablet!, tokens.tablet)).toMatchObject(works);

    const changed = await laptop!.call('PATCH', '/users/password', { email: cyd.email, curPassword: TEST_PASSWORD, newPassword: 'cyd-second', confirmPassword: 'cyd-second' });
    expect(changed.message).toBe('Password updated successfully');
    expect(await me(tablet!, tokens.tablet)).toMatchObject(ended);
    expect(await me(laptop!, tokens.laptop)).toMatchObject(works);
    // Login-only writes refuse it too, with the same message, and public reads treat it as no token.
    expect(await using(tablet!, tokens.tablet, 'POST', `/subscriptions/toggle/${ada.user!._id}`)).toMatchObject(ended);
    const asVisitor = await fetch(`${base}/videos?limit=1`, { headers: { authorization: `Bearer ${tokens.tablet}` } });
    expect(asVisitor.status).toBe(200);

    await visitor.call('POST', '/auths/forgot-password-mail', { email: cyd.email });
    await createWorker(t.ctx, memoryLog()).drain();
    const reset = await visitor.call('POST', '/auths/password-reset', { token: await mailed('password-reset', cyd.email), newPassword: 'cyd-third', confirmPassword: 'cyd-third' });
    expect(reset.message).toBe('Password reset successfully');
    expect(await me(laptop!, tokens.laptop)).toMatchObject(ended);
    // A new login is a new session, which works.
    await tablet!.login(cyd.email, 'cyd-third');
    expect(await tablet!.call('GET', '/users/me')).toMatchObject(works);
  });

  it('sent a Bearer header on every call and a JSON content type on every call that was not multipart', () => {
    expect(sent.length).toBeGreaterThan(80);
    expect(sent.filter((s) => !s.authorization?.startsWith('Bearer '))).toEqual([]);
    const multipart = sent.filter((s) => s.contentType === null).map((s) => `${s.method} ${s.path.split('?')[0]}`);
    expect(new Set(multipart)).toEqual(
      new Set(['PATCH /users/avatar', 'PATCH /users/cover-image', 'POST /videos', `PATCH /videos/${uploaded}`, 'POST /tweets', expect.stringMatching(/^PATCH \/tweets\//)]),
    );
    // No 5xx anywhere, and the only refreshes were the two the expired tokens called for (and the failed one after the reset).
    expect(sent.filter((s) => s.status >= 500)).toEqual([]);
    expect(sent.filter((s) => s.path === '/auths/refresh-token').map((s) => s.status)).toEqual([200, 200, 401]);
  });
});
