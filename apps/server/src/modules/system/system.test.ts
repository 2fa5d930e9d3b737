import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, postChunk, type TestContext } from '../../../test/harness.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('API basics', () => {
  it('answers unknown API routes with a JSON 404 envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toMatchObject({ statusCode: 404, success: false, data: null, errors: [] });
  });

  it('answers malformed JSON with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/health',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json().success).toBe(false);
  });

  it('serves the public config with the size limits', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.limits).toMatchObject({ videoMb: 2048, thumbnailMb: 1, imageMb: 15 });
  });

  it('reports the media engine: the bundled FFmpeg, current and usable', async () => {
    const media = (await t.app.inject({ method: 'GET', url: '/api/v1/health' })).json().data.media;
    expect(media).toMatchObject({ engine: 'bundled', usable: true, problems: [] });
    expect(Number(media.version.split('.')[0])).toBeGreaterThanOrEqual(7);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/config' })).json().data.uploads).toEqual({ available: true });
  });

  it('without a usable engine says why, and refuses uploads at once with 503, storing nothing', async () => {
    const broken = await createTestApp({ MEDIA_ENGINE: 'system', FFMPEG_PATH: '/nonexistent/ffmpeg' });
    try {
      const health = (await broken.app.inject({ method: 'GET', url: '/api/v1/health' })).json().data.media;
      expect(health).toMatchObject({ engine: 'system', usable: false });
      const reason = (await broken.app.inject({ method: 'GET', url: '/api/v1/config' })).json().data.uploads.reason;
      expect(reason).toMatch(/^Video processing is unavailable on this server: \/nonexistent\/ffmpeg does not run/);
      const user = await createUser(broken.ctx);
      const res = await postChunk(broken.app, await bearer(broken.ctx, user), { uniqueId: 'u1', chunkNumber: 0, totalChunks: 1 }, Buffer.from('x'), { isLastChunk: 'true', title: 't' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ success: false, message: reason });
      expect(existsSync(path.join(broken.dataDir, 'media', 'uploads'))).toBe(false);
    } finally {
      await broken.close();
    }
  });

  it('serves the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toBe('3.1.0');
  });
});

describe('GET /users/me', () => {
  it('is 401 when anonymous', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/users/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, statusCode: 401 });
  });

  it('is 401 "jwt expired" for an expired token', async () => {
    const user = await createUser(t.ctx);
    const token = await t.ctx.tokens.sign({ id: user.id, userName: user.userName }, -10);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('jwt expired');
  });

  it('is 401 for a forged token, as for no token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: { authorization: 'Bearer abc.def.ghi' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Unauthorized request');
  });

  it('returns the logged-in user', async () => {
    const user = await createUser(t.ctx, { fullName: 'Ada Lovelace' });
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: await bearer(t.ctx, user) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: { user: { _id: user.id, fullName: 'Ada Lovelace', email: user.email } } });
  });
});
