import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveMessages } from '@glimpse/contract';
import { createTestApp, createUser, memoryLog, TINY_PNG, type TestContext } from '../../../test/harness.ts';
import { sql } from 'drizzle-orm';
import { call, expectError, MISSING_ID, rows } from '../../../test/http.ts';
import type { UserRow } from '../users/users.repository.ts';
import { createWorker } from '../../worker.ts';
import { liveSessionPrefix } from '../../storage/media-keys.ts';
import { LivesService } from './lives.service.ts';

describe('lives and their stream keys', () => {
  let t: TestContext;
  let owner: UserRow;
  let other: UserRow;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx);
    other = await createUser(t.ctx);
  });
  afterAll(() => t.close());

  const enable = (changes: Record<string, unknown> = {}) => t.ctx.settings.update({ livesEnabled: true, ...changes });

  it('refuses a visitor (401), a disabled instance (403) and a bad body (400), creating nothing', async () => {
    expectError(await call(t, 'POST', '/lives', { body: { title: 'x' } }), 401, liveMessages.loginRequired);
    expectError(await call(t, 'GET', '/lives'), 401, liveMessages.loginRequired);
    await t.ctx.settings.update({ livesEnabled: false });
    expectError(await call(t, 'POST', '/lives', { as: owner, body: { title: 'x' } }), 403, liveMessages.disabled);
    await enable();
    expectError(await call(t, 'POST', '/lives', { as: owner, body: { title: '' } }), 400);
    expectError(await call(t, 'POST', '/lives', { as: owner, body: { title: 'x', privacy: 'secret' } }), 400);
    expectError(await call(t, 'POST', '/lives', { as: owner, body: { title: 'x\u0000y' } }), 400);
    expect((await call(t, 'GET', '/lives', { as: owner })).body.data).toEqual([]);
  });

  it('creates a live: the key is shown once, stored as a hash, and starts a session only while it is the current key', async () => {
    await enable();
    const res = await call(t, 'POST', '/lives', { as: owner, body: { title: 'Morning show', permanent: true, saveReplay: true, latencyMode: 'low' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { live, streamKey, rtmpUrl } = res.body.data;
    expect(live).toMatchObject({ title: 'Morning show', privacy: 'public', permanent: true, saveReplay: true, latencyMode: 'low', state: 'waiting', hlsUrl: null });
    expect(rtmpUrl).toBe('rtmp://glimpse.test:1935/live');
    expect(streamKey).toMatch(new RegExp(`^${live._id}\\.[A-Za-z0-9_-]{43}$`));
    // Neither the key nor its hash is ever answered again.
    const got = await call(t, 'GET', `/lives/${live._id}`);
    expect(JSON.stringify(got.body)).not.toContain(streamKey.split('.')[1]);
    expect(got.body.data).not.toHaveProperty('keyHash');

    const service = new LivesService(t.ctx);
    expect(await service.startSession(`${live._id}.wrong`)).toEqual({ refuse: 'Invalid stream key' });
    expect(await service.startSession('garbage')).toEqual({ refuse: 'Invalid stream key' });
    const renewed = await call(t, 'POST', `/lives/${live._id}/key`, { as: owner });
    expect(renewed.status).toBe(200);
    expect(renewed.body.data.streamKey).not.toBe(streamKey);
    expect(await service.startSession(streamKey)).toEqual({ refuse: 'Invalid stream key' });
    const started = await service.startSession(renewed.body.data.streamKey);
    expect(started).toMatchObject({ live: { state: 'live' }, maxSeconds: 240 * 60 });
    if (!('live' in started)) throw new Error('not started');
    expect((await call(t, 'GET', `/lives/${live._id}`)).body.data.hlsUrl).toBe(`/api/v1/lives/${live._id}/hls/${started.sessionId}/pub/master.m3u8`);
    expect(await service.startSession(renewed.body.data.streamKey)).toEqual({ refuse: 'This live is already on air' });
    expectError(await call(t, 'DELETE', `/lives/${live._id}`, { as: owner }), 409, liveMessages.onAir);
    // A permanent live waits for its next session.
    expect((await service.endSession(started.live, started.sessionId))?.state).toBe('waiting');
  });

  it('caps lives on air per user and per instance, with a message that says which', async () => {
    await enable({ maxLivesPerUser: 1, maxLivesPerInstance: 2 });
    const service = new LivesService(t.ctx);
    const make = async (as: UserRow) => (await call(t, 'POST', '/lives', { as, body: { title: 'cap' } })).body.data.streamKey as string;
    const [a1, a2, b1, b2] = [await make(owner), await make(owner), await make(other), await make(other)];
    expect(await service.startSession(a1)).toHaveProperty('sessionId');
    expect(await service.startSession(a2)).toEqual({ refuse: 'You can have 1 live on air at a time' });
    expect(await service.startSession(b1)).toHaveProperty('sessionId');
    expect(await service.startSession(b2)).toEqual({ refuse: 'This instance allows 2 lives at a time; try again later' });
    // Plural wording when the cap is more than one.
    const c = await createUser(t.ctx);
    await enable({ maxLivesPerUser: 2, maxLivesPerInstance: 50 });
    const [c1, c2, c3] = [await make(c), await make(c), await make(c)];
    expect(await service.startSession(c1)).toHaveProperty('sessionId');
    expect(await service.startSession(c2)).toHaveProperty('sessionId');
    expect(await service.startSession(c3)).toEqual({ refuse: 'You can have 2 lives on air at a time' });
    await t.ctx.settings.update({ livesEnabled: false });
    expect(await service.startSession(b2)).toEqual({ refuse: liveMessages.disabled });
  });

  it('a session whose worker died (no heartbeat for 30 s) is over: not on air, not counted, and the live can start again', async () => {
    await enable({ maxLivesPerUser: 1, maxLivesPerInstance: 10 });
    const fresh = await createUser(t.ctx);
    const service = new LivesService(t.ctx);
    const { live, streamKey } = (await call(t, 'POST', '/lives', { as: fresh, body: { title: 'Crashed' } })).body.data;
    const other = (await call(t, 'POST', '/lives', { as: fresh, body: { title: 'Next' } })).body.data;
    expect(await service.startSession(streamKey)).toHaveProperty('sessionId');
    expect(await service.startSession(other.streamKey)).toEqual({ refuse: 'You can have 1 live on air at a time' });
    await rows(t, sql`UPDATE lives SET heartbeat_at = now() - interval '31 seconds' WHERE id = ${live._id}`);
    expect((await call(t, 'GET', `/lives/${live._id}`)).body.data).toMatchObject({ state: 'ended', hlsUrl: null });
    expect(await service.startSession(other.streamKey)).toHaveProperty('sessionId');
  });

  it("a suspended account's lives: no session starts, one on air stops at its next heartbeat, and no one else sees the live, its HLS or its chat", async () => {
    await enable({ maxLivesPerUser: 5, maxLivesPerInstance: 50 });
    const host = await createUser(t.ctx);
    const service = new LivesService(t.ctx);
    const onAir = (await call(t, 'POST', '/lives', { as: host, body: { title: 'Before' } })).body.data;
    const next = (await call(t, 'POST', '/lives', { as: host, body: { title: 'After' } })).body.data;
    const started = await service.startSession(onAir.streamKey);
    if (!('sessionId' in started)) throw new Error('not started');
    await t.ctx.storage.putBuffer(`${liveSessionPrefix(onAir.live._id, started.sessionId)}/master.m3u8`, Buffer.from('#EXTM3U\n'));
    const hlsUrl = (await call(t, 'GET', `/lives/${onAir.live._id}`)).body.data.hlsUrl as string;
    expect((await t.app.inject({ method: 'GET', url: hlsUrl })).statusCode).toBe(200);
    expect(await service.heartbeat(started.live, started.sessionId)).toBe(true);

    await rows(t, sql`UPDATE users SET state = 'suspended' WHERE id = ${host.id}`);
    expect(await service.startSession(next.streamKey)).toEqual({ refuse: 'This account is suspended' });
    expect(await service.heartbeat(started.live, started.sessionId)).toBe(false);
    expectError(await call(t, 'GET', `/lives/${onAir.live._id}`), 404, liveMessages.notFound);
    expectError(await call(t, 'GET', `/lives/${onAir.live._id}/chat/stream`), 404, liveMessages.notFound);
    expectError(await call(t, 'GET', `/comments/live/${onAir.live._id}`, { as: other }), 404);
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await t.app.inject({ method: 'GET', url: hlsUrl })).statusCode).toBe(404);
  });

  it('a one-off live made permanent during its session waits for the next one, and one that has ended starts again once made permanent', async () => {
    await enable({ maxLivesPerUser: 5, maxLivesPerInstance: 50 });
    const host = await createUser(t.ctx);
    const service = new LivesService(t.ctx);
    const { live, streamKey } = (await call(t, 'POST', '/lives', { as: host, body: { title: 'Pilot' } })).body.data;
    let started = await service.startSession(streamKey);
    if (!('sessionId' in started)) throw new Error('not started');
    await call(t, 'PATCH', `/lives/${live._id}`, { as: host, body: { permanent: true } });
    expect((await service.endSession(started.live, started.sessionId))?.state).toBe('waiting');
    // The other way round: made one-off on air, it has ended; made permanent again, it goes on air.
    started = await service.startSession(streamKey);
    if (!('sessionId' in started)) throw new Error('not started');
    await call(t, 'PATCH', `/lives/${live._id}`, { as: host, body: { permanent: false } });
    expect((await service.endSession(started.live, started.sessionId))?.state).toBe('ended');
    expect(await service.startSession(streamKey)).toEqual({ refuse: 'This live has ended; create a new live or make it permanent' });
    await call(t, 'PATCH', `/lives/${live._id}`, { as: host, body: { permanent: true } });
    expect(await service.startSession(streamKey)).toHaveProperty('sessionId');
  });

  it('subscribers are told when a public live starts (a notification type with its own mail preference); a private one tells nobody', async () => {
    await enable({ maxLivesPerUser: 5, maxLivesPerInstance: 50 });
    const creator = await createUser(t.ctx);
    const fan = await createUser(t.ctx);
    await call(t, 'POST', `/subscriptions/toggle/${creator.id}`, { as: fan });
    const service = new LivesService(t.ctx);
    const open = (await call(t, 'POST', '/lives', { as: creator, body: { title: 'Open studio' } })).body.data;
    const hidden = (await call(t, 'POST', '/lives', { as: creator, body: { title: 'Rehearsal', privacy: 'private' } })).body.data;
    expect(await service.startSession(open.streamKey)).toHaveProperty('sessionId');
    expect(await service.startSession(hidden.streamKey)).toHaveProperty('sessionId');
    await createWorker(t.ctx, memoryLog()).drain();
    const told = (await call(t, 'GET', '/notifications', { as: fan })).body.data.notifications;
    expect(told).toMatchObject([{ type: 'live', actor: { _id: creator.id }, subject: { liveId: open.live._id, liveTitle: 'Open studio' } }]);
    expect((await call(t, 'GET', '/notifications/settings', { as: fan })).body.data.settings).toMatchObject({ live: 'instant' });
  });

  it('only the owner changes, renews or deletes a live; a private live is not found by others', async () => {
    await enable();
    const { live } = (await call(t, 'POST', '/lives', { as: owner, body: { title: 'Private', privacy: 'private' } })).body.data;
    expectError(await call(t, 'GET', `/lives/${live._id}`), 404, liveMessages.notFound);
    expectError(await call(t, 'GET', `/lives/${live._id}`, { as: other }), 404, liveMessages.notFound);
    expect((await call(t, 'GET', `/lives/${live._id}`, { as: owner })).status).toBe(200);
    expectError(await call(t, 'GET', `/lives/not-an-id`), 400);
    expectError(await call(t, 'GET', `/lives/${MISSING_ID}`), 404, liveMessages.notFound);
    expectError(await call(t, 'PATCH', `/lives/${live._id}`, { as: other, body: { title: 'Mine' } }), 403, liveMessages.notOwner);
    expectError(await call(t, 'POST', `/lives/${live._id}/key`, { as: other }), 403, liveMessages.notOwner);
    expectError(await call(t, 'DELETE', `/lives/${live._id}`, { as: other }), 403, liveMessages.notOwner);
    expectError(await call(t, 'PATCH', `/lives/${live._id}`, { as: owner, body: { state: 'live' } }), 400);
    const patched = await call(t, 'PATCH', `/lives/${live._id}`, { as: owner, body: { title: 'Now public', privacy: 'public' } });
    expect(patched.body.data).toMatchObject({ title: 'Now public', privacy: 'public', state: 'waiting' });
    expect((await call(t, 'GET', `/lives/${live._id}`)).status).toBe(200);
    expect((await call(t, 'DELETE', `/lives/${live._id}`, { as: owner })).status).toBe(200);
    expectError(await call(t, 'GET', `/lives/${live._id}`, { as: owner }), 404);
  });

  it('serves no HLS file of a live that is not on air, nor a path outside its files', async () => {
    await enable();
    const { live } = (await call(t, 'POST', '/lives', { as: owner, body: { title: 'Off air' } })).body.data;
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/lives/${live._id}/hls/${MISSING_ID}/pub/master.m3u8` });
    expect(res.statusCode).toBe(404);
    const bad = await t.app.inject({ method: 'GET', url: `/api/v1/lives/${live._id}/hls/${MISSING_ID}/pub/..%2f..%2fsecret` });
    expect(bad.statusCode).toBe(400);
  });

  it("a private live's HLS opens with the key only its owner is given, not with the public path", async () => {
    await enable({ maxLivesPerUser: 10, maxLivesPerInstance: 50 });
    const host = await createUser(t.ctx);
    const created = (await call(t, 'POST', '/lives', { as: host, body: { title: 'Dress rehearsal', privacy: 'private' } })).body.data;
    const started = await new LivesService(t.ctx).startSession(created.streamKey);
    if (!('sessionId' in started)) throw new Error('not started');
    await t.ctx.storage.putBuffer(`${liveSessionPrefix(created.live._id, started.sessionId)}/master.m3u8`, Buffer.from('#EXTM3U\n'));
    const hlsUrl = (await call(t, 'GET', `/lives/${created.live._id}`, { as: host })).body.data.hlsUrl as string;
    expect(hlsUrl).toMatch(new RegExp(`/hls/${started.sessionId}/k-[\\w-]{32}/master\\.m3u8$`));
    const opened = await t.app.inject({ method: 'GET', url: hlsUrl });
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['cache-control']).toBe('private, max-age=1');
    expect((await t.app.inject({ method: 'GET', url: hlsUrl.replace(/k-[\w-]{32}/, 'pub') })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: hlsUrl.replace(/k-[\w-]{32}/, `k-${'a'.repeat(32)}`) })).statusCode).toBe(404);
    // Made public, the same session opens at the public path, and the key stops working.
    await call(t, 'PATCH', `/lives/${created.live._id}`, { as: host, body: { privacy: 'public' } });
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await t.app.inject({ method: 'GET', url: hlsUrl.replace(/k-[\w-]{32}/, 'pub') })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: hlsUrl })).statusCode).toBe(404);
  });

  it("a live's own thumbnail: set by its owner only, checked like a video's, served to who may see the live, deleted with it", async () => {
    await enable();
    const host = await createUser(t.ctx);
    const { live } = (await call(t, 'POST', '/lives', { as: host, body: { title: 'With a poster', privacy: 'private' } })).body.data;
    expect(live.thumbnail).toBeNull();
    const form = (body: Buffer, name: string) => {
      const f = new FormData();
      f.append('image', new Blob([body]), name);
      return f;
    };
    expectError(await call(t, 'PUT', `/lives/${live._id}/thumbnail`, { body: form(TINY_PNG, 'a.png') }), 401, liveMessages.loginRequired);
    expectError(await call(t, 'PUT', `/lives/${live._id}/thumbnail`, { as: other, body: form(TINY_PNG, 'a.png') }), 403, liveMessages.notOwner);
    expectError(await call(t, 'PUT', `/lives/${MISSING_ID}/thumbnail`, { as: host, body: form(TINY_PNG, 'a.png') }), 404, liveMessages.notFound);
    // Not an image, whatever its name says: refused, nothing changes.
    expectError(await call(t, 'PUT', `/lives/${live._id}/thumbnail`, { as: host, body: form(Buffer.from('<svg/> not a png'), 'x.png') }), 400, 'Thumbnail must be a png or jpeg image');
    expect((await call(t, 'GET', `/lives/${live._id}`, { as: host })).body.data.thumbnail).toBeNull();

    const set = await call(t, 'PUT', `/lives/${live._id}/thumbnail`, { as: host, body: form(TINY_PNG, 'a.png') });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const url = set.body.data.thumbnail as string;
    expect(url).toMatch(new RegExp(`^/api/v1/lives/${live._id}/thumbnail/k-[\\w-]{32}/thumb-[0-9a-f-]{36}\\.png$`));
    const served = await t.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('private, no-store');
    // Private: others see neither the live nor its thumbnail at the public path or a guessed key.
    expectError(await call(t, 'GET', `/lives/${live._id}`, { as: other }), 404);
    expect((await t.app.inject({ method: 'GET', url: url.replace(/k-[\w-]{32}/, 'pub') })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: url.replace(/k-[\w-]{32}/, `k-${'a'.repeat(32)}`) })).statusCode).toBe(404);

    // Public: served at the public path, to anyone; a replaced thumbnail's file is gone.
    await call(t, 'PATCH', `/lives/${live._id}`, { as: host, body: { privacy: 'public' } });
    const shown = (await call(t, 'GET', `/lives/${live._id}`)).body.data.thumbnail as string;
    expect(shown).toBe(url.replace(/k-[\w-]{32}/, 'pub'));
    expect((await t.app.inject({ method: 'GET', url: shown })).statusCode).toBe(200);
    const oldKey = `lives/${live._id}/${shown.split('/').pop()}`;
    const again = await call(t, 'PUT', `/lives/${live._id}/thumbnail`, { as: host, body: form(TINY_PNG, 'b.png') });
    expect(again.body.data.thumbnail).not.toBe(shown);
    expect(await t.ctx.storage.exists(oldKey)).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: shown })).statusCode).toBe(404);

    // Removed, then set again and deleted with the live: the stored file goes too.
    const currentKey = `lives/${live._id}/${(again.body.data.thumbnail as string).split('/').pop()}`;
    expectError(await call(t, 'DELETE', `/lives/${live._id}/thumbnail`, { as: other }), 403, liveMessages.notOwner);
    expect((await call(t, 'DELETE', `/lives/${live._id}/thumbnail`, { as: host })).body.data.thumbnail).toBeNull();
    expect(await t.ctx.storage.exists(currentKey)).toBe(false);
    const last = (await call(t, 'PUT', `/lives/${live._id}/thumbnail`, { as: host, body: form(TINY_PNG, 'c.png') })).body.data.thumbnail as string;
    const lastKey = `lives/${live._id}/${last.split('/').pop()}`;
    expect(await t.ctx.storage.exists(lastKey)).toBe(true);
    expect((await call(t, 'DELETE', `/lives/${live._id}`, { as: host })).status).toBe(200);
    expect(await t.ctx.storage.exists(lastKey)).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: last })).statusCode).toBe(404);
  });
});
