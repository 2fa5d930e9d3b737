import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, createTestApp, createTweet, createUser, createVideo, type TestContext } from '../test/harness.ts';

/**
 * Property-based hostile input against every API route in the route table: whatever arrives,
 * the answer is a JSON envelope below 500 and the server keeps serving.
 */
const RUNS = Number(process.env.HOSTILE_RUNS ?? 10_000);
const SEED = 20261122;

let t: TestContext;
let auth: Record<string, string>;
/** Ids and names that exist, so requests reach past the 404s into the handlers. */
let known: string[] = [];
beforeAll(async () => {
  t = await createTestApp();
  const user = await createUser(t.ctx);
  const other = await createUser(t.ctx);
  auth = await bearer(t.ctx, user);
  const mine = await createVideo(t.ctx, user);
  const theirs = await createVideo(t.ctx, other);
  const hidden = await createVideo(t.ctx, other, { isPublished: false });
  const tweet = await createTweet(t.ctx, other);
  known = [user.id, other.id, user.userName, `@${other.userName}`, mine.id, theirs.id, hidden.id, tweet.id];
});
afterAll(() => t.close());

const segment = fc.oneof(
  fc.nat(1000).map((n) => known[n % known.length]!),
  fc.string({ maxLength: 40 }),
  fc.uuid(),
  fc.constantFrom('..', '../../etc/passwd', '%2e%2e%2f', '@', '@nobody', '0', '-1', '1e309', 'null', 'video', 'tweet', 'comment', ' '),
  fc.string({ minLength: 300, maxLength: 2000 }),
);
const queryValue = fc.oneof(fc.string({ maxLength: 50 }), fc.integer().map(String), fc.constantFrom('', 'NaN', '-5', '99999999999', 'true'));
const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(
    fc.constantFrom('email', 'password', 'fullName', 'userName', 'content', 'name', 'title', 'description', 'isPublished', 'videoId', 'token', 'newPassword', 'confirmPassword', 'curPassword', 'refreshToken', 'position'),
    fc.oneof(fc.string({ maxLength: 200 }), fc.integer(), fc.boolean(), fc.constant(null), fc.string({ minLength: 5000, maxLength: 20000 })),
  ),
);
const rawBody = fc.constantFrom('{"a":', 'not json', '[]', '""', '\u0000', '{"__proto__":{"x":1}}');

it(`answers ${RUNS} hostile requests without a 5xx or a non-JSON body`, async () => {
  const routes = t.app.routeTable.filter((r) => !r.url.startsWith('/api/docs'));
  expect(routes.length).toBeGreaterThan(1);
  const request = fc.record({
    route: fc.constantFrom(...routes),
    params: fc.array(segment, { minLength: 4, maxLength: 4 }),
    query: fc.dictionary(fc.constantFrom('page', 'limit', 'cursor', 'query', 'sortBy', 'type', 'duration', 'uploadDate', 'userName', 'videoId', 'userId', 'token', 'uniqueId', 'chunkNumber', 'totalChunks', 'searchText'), queryValue),
    body: fc.oneof(jsonBody.map((b) => ({ kind: 'json' as const, b })), rawBody.map((b) => ({ kind: 'raw' as const, b }))),
    authMode: fc.constantFrom('none', 'valid', 'garbage'),
  });
  await fc.assert(
    fc.asyncProperty(request, async ({ route, params, query, body, authMode }) => {
      let i = 0;
      const url = route.url.replace(/:[A-Za-z]+\??/g, () => encodeURIComponent(params[i++ % params.length]!) || 'x');
      const headers: Record<string, string> = {
        ...(authMode === 'valid' ? auth : authMode === 'garbage' ? { authorization: 'Bearer x.y.z' } : {}),
      };
      const withBody = route.method !== 'GET' && route.method !== 'DELETE';
      if (withBody) headers['content-type'] = 'application/json';
      const res = await t.app.inject({
        method: route.method as 'GET',
        url,
        query,
        headers,
        payload: withBody ? (body.kind === 'json' ? JSON.stringify(body.b) : body.b) : undefined,
      });
      if (res.statusCode >= 500 || !String(res.headers['content-type']).includes('application/json')) {
        throw new Error(`${route.method} ${url} -> ${res.statusCode} ${res.body.slice(0, 300)}`);
      }
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
  const health = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
  expect(health.statusCode).toBe(200);
}, 600_000);
