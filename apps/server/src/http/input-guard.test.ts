import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../modules/users/users.repository.ts';
import { bearer, createTestApp, createTweet, createUser, createVideo, expectApiError, multipartBody, TINY_PNG, type TestContext } from '../../test/harness.ts';
import { dataFingerprint } from '../../test/invariants.ts';

/** NUL, BEL, ESC, vertical tab, DEL and two C1 controls (NEL, CSI). */
const CONTROLS = ['\u0000', '\u0007', '\u001b', '\u000b', '\u007f', '\u0085', '\u009b'];

const logLines: string[] = [];
let t: TestContext;
let user: UserRow;
let auth: Record<string, string>;
let videoId: string;
let tweetId: string;
let commentId: string;
let playlistId: string;

beforeAll(async () => {
  t = await createTestApp({}, { logger: { level: 'info', stream: { write: (line: string) => void logLines.push(line) } } });
  user = await createUser(t.ctx);
  auth = await bearer(t.ctx, user);
  videoId = (await createVideo(t.ctx, user)).id;
  tweetId = (await createTweet(t.ctx, user)).id;
  const comment = await t.app.inject({ method: 'POST', url: `/api/v1/comments/video/${videoId}`, headers: auth, payload: { content: 'first' } });
  commentId = comment.json().data._id;
  const playlist = await t.app.inject({ method: 'POST', url: '/api/v1/playlists', headers: auth, payload: { name: 'Mix' } });
  playlistId = playlist.json().data.playlist._id;
});
afterAll(() => t.close());

/** Each request of the list (search, user-name lookups, register, tweets, comments, playlists) carrying `bad`. */
function hostileRequests(bad: string): [string, InjectOptions][] {
  const text = `a${bad}b`;
  const q = encodeURIComponent(text);
  const form = (fields: Record<string, string>) => {
    const { payload, headers } = multipartBody(fields);
    return { payload, headers: { ...auth, ...headers } };
  };
  return [
    ['video search', { method: 'GET', url: `/api/v1/videos?query=${q}` }],
    ['channel search', { method: 'GET', url: `/api/v1/videos?type=channel&query=${q}` }],
    ['playlist search', { method: 'GET', url: `/api/v1/videos?type=playlist&query=${q}` }],
    ['channel by user name', { method: 'GET', url: `/api/v1/users/channel/${q}` }],
    ['videos by user name', { method: 'GET', url: `/api/v1/users/video/${q}` }],
    ['playlists by user name', { method: 'GET', url: `/api/v1/playlists?userName=${q}` }],
    ['an ignored userId', { method: 'GET', url: `/api/v1/videos/${videoId}?userId=${q}` }],
    ['register', { method: 'POST', url: '/api/v1/auths/register', payload: { fullName: text, email: 'x@example.com', password: 'secret123' } }],
    ['login', { method: 'POST', url: '/api/v1/auths/login', payload: { email: user.email, password: text } }],
    ['profile', { method: 'PATCH', url: '/api/v1/users/me', headers: auth, payload: { fullName: 'Plain', userName: text } }],
    ['new tweet', { method: 'POST', url: '/api/v1/tweets', ...form({ content: text }) }],
    ['tweet edit', { method: 'PATCH', url: `/api/v1/tweets/${tweetId}`, ...form({ content: text }) }],
    ['new comment', { method: 'POST', url: `/api/v1/comments/video/${videoId}`, headers: auth, payload: { content: text } }],
    ['comment edit', { method: 'PATCH', url: `/api/v1/comments/${commentId}`, headers: auth, payload: { content: text } }],
    ['new playlist', { method: 'POST', url: '/api/v1/playlists', headers: auth, payload: { name: 'ok', description: text } }],
    ['playlist edit', { method: 'PATCH', url: `/api/v1/playlists/${playlistId}`, headers: auth, payload: { name: text } }],
    ['video edit (JSON)', { method: 'PATCH', url: `/api/v1/videos/${videoId}`, headers: auth, payload: { description: text } }],
    ['video edit (multipart)', { method: 'PATCH', url: `/api/v1/videos/${videoId}`, ...form({ title: text }) }],
    ['a nested body key', { method: 'POST', url: '/api/v1/playlists', headers: auth, payload: { name: 'ok', extra: { [text]: 1 } } }],
  ];
}

describe('control characters', () => {
  it('are a 400 envelope wherever they are (path, query, JSON or multipart body) and change nothing', async () => {
    const before = await dataFingerprint(t.ctx.db);
    for (const bad of CONTROLS) {
      for (const [what, request] of hostileRequests(bad)) {
        const res = await t.app.inject(request);
        expect(res.statusCode, `${what} with U+${bad.charCodeAt(0).toString(16)}: ${res.body}`).toBe(400);
        expectApiError(res, 400);
        expect(res.json().message).toMatch(/control characters/);
      }
    }
    expect(await dataFingerprint(t.ctx.db)).toEqual(before);
  });

  it('names the field that carries one', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/comments/video/${videoId}`, headers: auth, payload: { content: 'a\u0000b' } });
    expectApiError(res, 400, 'content must not contain control characters');
    expect(res.json().errors).toEqual([{ path: 'body.content', message: 'content must not contain control characters' }]);
  });

  it('keeps tabs and line breaks in multi-line fields', async () => {
    const text = 'first line\n\tindented\r\nlast';
    const comment = await t.app.inject({ method: 'POST', url: `/api/v1/comments/video/${videoId}`, headers: auth, payload: { content: text } });
    expect(comment.statusCode).toBe(201);
    expect(comment.json().data.content).toBe(text);
    const { payload, headers } = multipartBody({ content: text });
    const tweet = await t.app.inject({ method: 'POST', url: '/api/v1/tweets', headers: { ...auth, ...headers }, payload });
    expect(tweet.statusCode).toBe(201);
    expect(tweet.json().data.content).toBe(text);
    const video = await t.app.inject({ method: 'PATCH', url: `/api/v1/videos/${videoId}`, headers: auth, payload: { description: text } });
    expect(video.statusCode).toBe(200);
    expect(video.json().data.video.description).toBe(text);
  });

  it('one-line fields (names, titles) refuse tabs and line breaks too; search text folds them (a query built from a description)', async () => {
    for (const bad of ['\n', '\r', '\t', '\u2028']) {
      const text = `a${bad}b`;
      const playlist = await t.app.inject({ method: 'POST', url: '/api/v1/playlists', headers: auth, payload: { name: text } });
      expectApiError(playlist, 400, 'Use one line of text without control characters');
      const video = await t.app.inject({ method: 'PATCH', url: `/api/v1/videos/${videoId}`, headers: auth, payload: { title: text } });
      expectApiError(video, 400, 'Use one line of text without control characters');
      expect((await t.app.inject({ method: 'GET', url: `/api/v1/videos?query=${encodeURIComponent(text)}` })).statusCode).toBe(200);
    }
  });
});

describe('what Fastify answers before our handlers', () => {
  const expectGuarded = (res: Awaited<ReturnType<TestContext['app']['inject']>>, status: number) => {
    expectApiError(res, status);
    expect(res.json()).toMatchObject({ data: null, success: false, errors: [] });
    expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  };
  const logged = (url: string) => logLines.map((l) => JSON.parse(l) as { msg: string; req?: { url: string } }).some((l) => l.req?.url === url);

  it('bad percent-encoding in the path: 400 envelope with security headers, logged', async () => {
    for (const url of ['/api/v1/users/channel/%E0%A4%A', '/api/v1/users/channel/%ZZ', '/api/v1/tweets/%C0%80', '/api/v1/users/channel/%ED%A0%80']) {
      const res = await t.app.inject({ method: 'GET', url });
      expectGuarded(res, 400);
      expect(res.json().message).toBe('Malformed URL: invalid percent-encoding in the path');
      expect(logged(url), url).toBe(true);
    }
  });

  it('a too-long path parameter: 414 envelope with security headers, logged', async () => {
    const url = `/api/v1/users/channel/${'a'.repeat(500)}`;
    const res = await t.app.inject({ method: 'GET', url });
    expectGuarded(res, 414);
    expect(res.json().message).toBe('A path parameter is too long');
    expect(logged(url)).toBe(true);
  });

  it('multipart without a boundary, or cut off, is a 400 on every multipart route and stores nothing', async () => {
    const before = await dataFingerprint(t.ctx.db);
    const routes: [string, string][] = [
      ['POST', '/api/v1/tweets'],
      ['PATCH', `/api/v1/tweets/${tweetId}`],
      ['PATCH', `/api/v1/videos/${videoId}`],
      ['PATCH', '/api/v1/users/avatar'],
      ['PATCH', '/api/v1/users/cover-image'],
      ['POST', '/api/v1/videos?uniqueId=abc&chunkNumber=0&totalChunks=1'],
    ];
    const cutOff = '--xyz\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n' + TINY_PNG.toString('latin1');
    for (const [method, url] of routes) {
      for (const [contentType, payload] of [
        ['multipart/form-data', 'content=hello'],
        ['multipart/form-data; boundary=', 'content=hello'],
        ['multipart/form-data; boundary=xyz', cutOff],
      ]) {
        const res = await t.app.inject({ method: method as 'POST', url, headers: { ...auth, 'content-type': contentType! }, payload });
        expectApiError(res, 400, 'Malformed multipart/form-data body');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      }
    }
    expect(await dataFingerprint(t.ctx.db)).toEqual(before);
  });

  it('wrong content types are a 4xx envelope with security headers, logged', async () => {
    const before = await dataFingerprint(t.ctx.db);
    const cases: [string, string, string, number][] = [
      ['POST', '/api/v1/playlists', 'application/xml', 415],
      ['POST', '/api/v1/playlists', 'nonsense', 415],
      ['POST', '/api/v1/playlists', 'text/plain', 400],
      ['PATCH', `/api/v1/comments/${commentId}`, 'multipart/form-data; boundary=xyz', 400],
      ['POST', '/api/v1/tweets', 'application/json', 400],
      ['PATCH', '/api/v1/users/avatar', 'text/plain', 400],
    ];
    for (const [method, url, contentType, status] of cases) {
      const payload = contentType.startsWith('application/json') ? '{"content":"x"}' : 'content=x';
      const res = await t.app.inject({ method: method as 'POST', url, headers: { ...auth, 'content-type': contentType }, payload });
      expect(res.statusCode, `${method} ${url} as ${contentType}: ${res.body}`).toBe(status);
      expectApiError(res, status);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    const xml = logLines.map((l) => JSON.parse(l) as { msg: string; code?: string }).filter((l) => l.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE');
    expect(xml.length).toBeGreaterThanOrEqual(2);
    expect(await dataFingerprint(t.ctx.db)).toEqual(before);
  });

  it('a deeply nested JSON body is a 400, not a stack overflow', async () => {
    const depth = 150_000;
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/videos/${videoId}`,
      headers: { ...auth, 'content-type': 'application/json' },
      payload: `${'{"a":'.repeat(depth)}"x\\u0000"${'}'.repeat(depth)}`,
    });
    expect(res.statusCode).toBe(400);
  });
});
