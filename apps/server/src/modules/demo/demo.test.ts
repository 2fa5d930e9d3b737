import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counterMismatches } from '../../../test/invariants.ts';
import { call } from '../../../test/http.ts';
import { createTestApp, createUser, type TestContext } from '../../../test/harness.ts';
import { DEMO_PASSWORD, DemoRefusedError, seedDemo, type DemoResult } from './demo.service.ts';

let t: TestContext;
let result: DemoResult;
const lines: string[] = [];
beforeAll(async () => {
  t = await createTestApp();
  result = await seedDemo(t.ctx, { videos: 2, maxSeconds: 2, log: (l) => lines.push(l) });
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
      expect(v.thumbnail.url).toBeTruthy();
    }
    const channel = await call(t, 'GET', '/users/channel/ava');
    expect(channel.body.data).toMatchObject({ fullName: 'Ava Lindqvist', subscriberCount: 2 });
    expect(channel.body.data.avatar.url).toBeTruthy();
    expect(await counterMismatches(t.ctx.db)).toEqual([]);
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
