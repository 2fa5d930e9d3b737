import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../src/app.ts';
import type { UserRow } from '../src/modules/users/users.repository.ts';
import { bearer, createTestApp, createTweet, createUser, createVideo, multipartBody, type TestContext } from '../test/harness.ts';
import { dataFingerprint, storedControlCharacters } from '../test/invariants.ts';

/**
 * Hostile input against every API route in the route table: whatever arrives, the answer is a
 * JSON envelope below 500 with the security headers, and the server keeps serving. First generated
 * sweeps (a control character in every string parameter; the router's own refusals on every route),
 * then property-based requests.
 */
const RUNS = Number(process.env.HOSTILE_RUNS ?? 10_000);
const SEED = 20261122;

/** NUL, other C0 controls, DEL and C1 controls: refused wherever they appear. */
const CONTROLS = ['\u0000', '\u0001', '\u0008', '\u000b', '\u000c', '\u001b', '\u001f', '\u007f', '\u0080', '\u0085', '\u009b', '\u009f'];
/** Text fields of multipart forms: the handlers read them, so no route schema lists them. */
const MULTIPART_FIELDS = ['content', 'title', 'description', 'isLastChunk'];
/** The routes that read a multipart form. */
const MULTIPART_ROUTES = [
  'POST /api/v1/tweets',
  'PATCH /api/v1/tweets/:tweetId',
  'POST /api/v1/videos',
  'PATCH /api/v1/videos/:id',
  'PATCH /api/v1/users/avatar',
  'PATCH /api/v1/users/cover-image',
];
/** Routes whose success is a file to save (a JSON attachment, not the envelope); their refusals are envelopes. */
const DOWNLOAD_ROUTES = ['GET /api/v1/users/me/export', 'GET /api/v1/analytics/channel.csv', 'GET /api/v1/analytics/videos/:id.csv'];
/** Streams stay open until the client leaves: a request that gets through would never answer. Their refusals are checked here, their stream in its module's tests. */
const STREAM_ROUTES = ['GET /api/v1/notifications/stream'];
/** Routes whose success is an RSS or Atom document; their refusals are envelopes. */
const FEED_ROUTES = ['GET /api/v1/feeds/channels/:userName', 'GET /api/v1/feeds/subscriptions/:token'];
const BAD_ENCODINGS = ['%', '%zz', '%E0%A4%A', '%C0%80', '%ED%A0%80', '%FF'];

let t: TestContext;
let user: UserRow;
let auth: Record<string, string>;
/** A valid value per path parameter name, so a request reaches the handler past the others. */
let validParam: Record<string, string>;
/** Ids and names that exist, so random requests reach past the 404s into the handlers. */
let known: string[] = [];
let routes: RouteEntry[];

beforeAll(async () => {
  t = await createTestApp();
  // An admin: staff routes refuse others before validating, and every route's input must be checked.
  user = await createUser(t.ctx, { role: 'admin' });
  const other = await createUser(t.ctx);
  auth = await bearer(t.ctx, user);
  const mine = await createVideo(t.ctx, user);
  const theirs = await createVideo(t.ctx, other);
  const hidden = await createVideo(t.ctx, other, { privacy: 'private' });
  const tweet = await createTweet(t.ctx, other);
  const comment = await t.app.inject({ method: 'POST', url: `/api/v1/comments/video/${theirs.id}`, headers: auth, payload: { content: 'hi' } });
  const playlist = await t.app.inject({ method: 'POST', url: '/api/v1/playlists', headers: auth, payload: { name: 'Mix' } });
  const commentId = comment.json().data._id as string;
  const playlistId = playlist.json().data.playlist._id as string;
  known = [user.id, other.id, user.userName, `@${other.userName}`, mine.id, theirs.id, hidden.id, tweet.id, commentId, playlistId];
  validParam = {
    id: mine.id,
    videoId: theirs.id,
    entityId: theirs.id,
    entityType: 'video',
    tweetId: tweet.id,
    commentId,
    parentId: commentId,
    parentCommentId: commentId,
    playlistId,
    channelId: other.id,
    userId: user.id,
    userName: other.userName,
    uniqueId: 'upload-1',
  };
  routes = t.app.routeTable.filter((r) => !r.url.startsWith('/api/docs'));
});
afterAll(() => t.close());

const pathParams = (url: string) => [...url.matchAll(/:([A-Za-z]+)\??/g)].map((m) => m[1]!);
const hasBody = (method: string) => method !== 'GET';
/** A valid query for routes whose query has required fields (the upload's chunk numbers). */
const VALID_QUERY: Record<string, string> = { uniqueId: 'upload-1', chunkNumber: '0', totalChunks: '1' };

/** The route's URL with each path parameter valid, or as `raw` gives it (sent as is, not encoded). */
function urlOf(route: RouteEntry, raw: Record<string, string> = {}): string {
  return route.url.replace(/:([A-Za-z]+)\??/g, (_m, name: string) => raw[name] ?? encodeURIComponent(validParam[name] ?? known[0]!));
}

/** The keys of a zod object schema, through optional, nullable, default and pipe wrappers. */
function keysOf(schema: unknown): string[] {
  type Node = { shape?: Record<string, unknown>; def?: { innerType?: Node; in?: Node } } | undefined;
  let node = schema as Node;
  for (let depth = 0; node && depth < 10; depth += 1) {
    if (node.shape) return Object.keys(node.shape);
    node = node.def?.innerType ?? node.def?.in;
  }
  return [];
}

/** The JSON envelope of spec §7 / ARCHITECTURE §4, below 500, with the security headers. */
function checkAnswer(res: LightMyRequestResponse, what: string, route?: RouteEntry): void {
  const fail = (why: string) => {
    throw new Error(`${what} -> ${res.statusCode} (${why}): ${res.body.slice(0, 300)}`);
  };
  if (res.statusCode >= 500) fail('5xx');
  if (route && DOWNLOAD_ROUTES.includes(`${route.method} ${route.url}`) && res.statusCode === 200) {
    if (!String(res.headers['content-disposition']).startsWith('attachment;')) fail('a download without Content-Disposition: attachment');
    return;
  }
  if (route && FEED_ROUTES.includes(`${route.method} ${route.url}`) && res.statusCode === 200) {
    if (!/^application\/(rss|atom)\+xml; charset=utf-8$/.test(String(res.headers['content-type'])) || !res.body.startsWith('<?xml ')) fail('not a feed');
    return;
  }
  if (!String(res.headers['content-type']).includes('application/json')) fail('not JSON');
  if (res.headers['x-content-type-options'] !== 'nosniff' || !res.headers['content-security-policy']) fail('no security headers');
  const body = res.json() as Record<string, unknown>;
  if (body.statusCode !== res.statusCode || typeof body.message !== 'string') fail('not the envelope');
  if (res.statusCode >= 400) {
    if (body.success !== false || !Array.isArray(body.errors) || !('data' in body)) fail('not the error envelope');
  } else if (body.success !== true) fail('not the success envelope');
}

/** Every string parameter of every route (path, query, body), one control character at a time. */
function controlCharacterCases() {
  const cases: { route: RouteEntry; where: 'params' | 'querystring' | 'body' | 'multipart'; name: string }[] = [];
  for (const route of routes) {
    const schema = (route.schema ?? {}) as { querystring?: unknown; body?: unknown };
    for (const name of pathParams(route.url)) cases.push({ route, where: 'params', name });
    // Keys no schema names are refused too: nothing with a control character gets through.
    for (const name of [...keysOf(schema.querystring), 'unlisted']) cases.push({ route, where: 'querystring', name });
    if (!hasBody(route.method)) continue;
    for (const name of [...keysOf(schema.body), ...MULTIPART_FIELDS, 'unlisted']) cases.push({ route, where: 'body', name });
    if (MULTIPART_ROUTES.includes(`${route.method} ${route.url}`)) {
      for (const name of MULTIPART_FIELDS) cases.push({ route, where: 'multipart', name });
    }
  }
  return cases;
}

describe('control characters in every string parameter', () => {
  it('are a 400 envelope before any handler, and change nothing', async () => {
    const before = await dataFingerprint(t.ctx.db);
    const cases = controlCharacterCases();
    expect(cases.length).toBeGreaterThan(routes.length);
    let n = 0;
    for (const { route, where, name } of cases) {
      const bad = `x${CONTROLS[n++ % CONTROLS.length]}y`;
      const query = { ...VALID_QUERY, ...(where === 'querystring' ? { [name]: bad } : {}) };
      const url = urlOf(route, where === 'params' ? { [name]: encodeURIComponent(bad) } : {});
      const form = where === 'multipart' ? multipartBody({ [name]: bad }) : undefined;
      const res = await t.app.inject({
        method: route.method as 'POST',
        url,
        query,
        headers: { ...auth, ...(form?.headers ?? (hasBody(route.method) ? { 'content-type': 'application/json' } : {})) },
        payload: form?.payload ?? (hasBody(route.method) ? JSON.stringify(where === 'body' ? { [name]: bad } : {}) : undefined),
      });
      const what = `${route.method} ${route.url} with U+${bad.charCodeAt(1).toString(16).padStart(4, '0')} in ${where}.${name}`;
      checkAnswer(res, what);
      expect(res.statusCode, what).toBe(400);
      expect(res.json().message, what).toMatch(/control characters/);
    }
    expect(await dataFingerprint(t.ctx.db)).toEqual(before);
  });
});

describe("the router's and the body parsers' refusals, on every route", () => {
  it('a too-long path parameter is a 414 envelope', async () => {
    for (const route of routes) {
      for (const name of pathParams(route.url)) {
        const res = await t.app.inject({ method: route.method as 'GET', url: urlOf(route, { [name]: 'a'.repeat(300) }), headers: auth });
        checkAnswer(res, `${route.method} ${route.url} with a long ${name}`);
        expect(res.statusCode).toBe(414);
      }
    }
  });

  it('bad percent-encoding in a path parameter is a 400 envelope', async () => {
    for (const route of routes) {
      for (const name of pathParams(route.url)) {
        for (const bad of BAD_ENCODINGS) {
          const res = await t.app.inject({ method: route.method as 'GET', url: urlOf(route, { [name]: `a${bad}` }), headers: auth });
          checkAnswer(res, `${route.method} ${route.url} with ${name}=a${bad}`);
          expect(res.statusCode).toBe(400);
        }
      }
    }
  });

  it('multipart without a boundary, cut-off multipart and wrong content types are 4xx envelopes', async () => {
    const bodies: [string, string][] = [
      ['multipart/form-data', 'content=x'],
      ['multipart/form-data; boundary=', 'content=x'],
      ['multipart/form-data; boundary=b', '--b\r\nContent-Disposition: form-data; name="content"\r\n\r\nunfinished'],
      ['application/xml', '<a/>'],
      ['text/plain', 'content=x'],
      ['application/x-www-form-urlencoded', 'content=x'],
      ['application/json', 'content=x'],
      ['application/json; charset=utf-16', '{"title":'],
      ['image/png', '\x89PNG'],
      [';;;', 'x'],
    ];
    for (const route of routes.filter((r) => hasBody(r.method))) {
      const isMultipart = MULTIPART_ROUTES.includes(`${route.method} ${route.url}`);
      for (const [contentType, payload] of bodies) {
        const res = await t.app.inject({ method: route.method as 'POST', url: urlOf(route), query: VALID_QUERY, headers: { ...auth, 'content-type': contentType }, payload });
        const what = `${route.method} ${route.url} as ${contentType}`;
        checkAnswer(res, what);
        // A multipart route reads its form: whatever else arrives is refused.
        if (isMultipart) expect(res.statusCode, what).toBeGreaterThanOrEqual(400);
      }
    }
  });
});

const controlString = fc
  .tuple(fc.string({ maxLength: 20 }), fc.constantFrom(...CONTROLS), fc.string({ maxLength: 20 }))
  .map(([a, c, b]) => a + c + b);
/** Printable ASCII, any code point (controls and lone surrogates included), or a sure control character. */
const hostileString = (maxLength: number) => fc.oneof(fc.string({ maxLength }), fc.string({ unit: 'binary', maxLength }), controlString);

const segment = fc.oneof(
  fc.nat(1000).map((n) => encodeURIComponent(known[n % known.length]!)),
  hostileString(40).map(encodeURIComponent),
  fc.uuid(),
  fc.constantFrom('..', '../../etc/passwd', '%2e%2e%2f', '@', '@nobody', '0', '-1', '1e309', 'null', 'video', 'tweet', 'comment', '%20', ...BAD_ENCODINGS),
  fc.string({ minLength: 300, maxLength: 2000 }).map(encodeURIComponent),
);
const queryValue = fc.oneof(hostileString(50), fc.integer().map(String), fc.constantFrom('', 'NaN', '-5', '99999999999', 'true'));
const FIELDS = ['email', 'password', 'fullName', 'userName', 'content', 'name', 'title', 'description', 'isPublished', 'privacy', 'publishAt', 'downloadsEnabled', 'videoId', 'token', 'newPassword', 'confirmPassword', 'curPassword', 'refreshToken', 'position', 'isLastChunk', '_id'];
const fieldValue = fc.oneof(hostileString(200), fc.integer(), fc.boolean(), fc.constant(null), fc.string({ minLength: 5000, maxLength: 20000 }));
const jsonBody = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.dictionary(fc.constantFrom(...FIELDS), fieldValue));
const rawBody = fc.constantFrom('{"a":', 'not json', '[]', '""', '\u0000', '{"__proto__":{"x":1}}', '{"content":"a\\u0000b"}');

it(`answers ${RUNS} hostile requests with a JSON envelope below 500`, async () => {
  const QUERY_NAMES = [...new Set(routes.flatMap((r) => keysOf((r.schema as { querystring?: unknown } | undefined)?.querystring))), 'searchText', 'userId'];
  const request = fc.record({
    route: fc.constantFrom(...routes.filter((r) => !STREAM_ROUTES.includes(`${r.method} ${r.url}`))),
    params: fc.array(segment, { minLength: 4, maxLength: 4 }),
    query: fc.dictionary(fc.constantFrom(...QUERY_NAMES), queryValue),
    body: fc.oneof(
      jsonBody.map((b) => ({ kind: 'json' as const, b })),
      rawBody.map((b) => ({ kind: 'raw' as const, b })),
      fc.dictionary(fc.constantFrom(...FIELDS), hostileString(100)).map((b) => ({ kind: 'multipart' as const, b })),
    ),
    authMode: fc.constantFrom('none', 'valid', 'garbage'),
  });
  await fc.assert(
    fc.asyncProperty(request, async ({ route, params, query, body, authMode }) => {
      let i = 0;
      const url = route.url.replace(/:[A-Za-z]+\??/g, () => params[i++ % params.length] || 'x');
      const headers: Record<string, string> = {
        ...(authMode === 'valid' ? auth : authMode === 'garbage' ? { authorization: 'Bearer x.y.z' } : {}),
      };
      let payload: string | Buffer | undefined;
      if (hasBody(route.method)) {
        if (body.kind === 'multipart') {
          const form = multipartBody(body.b);
          Object.assign(headers, form.headers);
          payload = form.payload;
        } else {
          headers['content-type'] = 'application/json';
          payload = body.kind === 'json' ? JSON.stringify(body.b) : body.b;
        }
      }
      const res = await t.app.inject({ method: route.method as 'GET', url, query, headers, payload });
      checkAnswer(res, `${route.method} ${url}`, route);
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
  const health = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
  expect(health.statusCode).toBe(200);
}, 600_000);

it('stored no control character anywhere', async () => {
  expect(await storedControlCharacters(t.ctx.db)).toEqual([]);
});
