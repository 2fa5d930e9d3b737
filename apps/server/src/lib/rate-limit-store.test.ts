import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { RateLimitsRepository } from './rate-limits.repository.ts';
import { createTestApp, type TestContext } from '../../test/harness.ts';

const limited = { RATE_LIMITS_ENABLED: 'true', RATE_LIMIT_LOGIN: '3', RATE_LIMIT_STORE: 'database' };
const login = (app: TestContext['app'], headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/api/v1/auths/login', headers, payload: { email: 'nobody@example.com', password: 'wrong-password' } }).then((r) => r.statusCode);

describe('rate limits in the database (RATE_LIMIT_STORE=database)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp(limited);
  });
  afterAll(() => t.close());

  it('holds a limit of N across two app instances on one database together', async () => {
    // A second API "process": its own Fastify instance and plugin state, the same database.
    const second = await buildApp(t.ctx);
    await second.ready();
    try {
      const codes = [];
      for (let i = 0; i < 6; i++) codes.push(await login(i % 2 === 0 ? t.app : second));
      expect(codes).toEqual([401, 401, 401, 429, 429, 429]);
      const res = await second.inject({ method: 'POST', url: '/api/v1/auths/login', payload: {} });
      expect(res.json()).toMatchObject({ statusCode: 429, success: false, message: expect.stringMatching(/^Too many requests, please try again in \d+ seconds\.$/) });
    } finally {
      await second.close();
    }
  });

  it('counts each route on its own and ignores X-Forwarded-For by default (TRUST_PROXY=false)', async () => {
    const other = await createTestApp(limited);
    try {
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push(await login(other.app, { 'x-forwarded-for': `10.0.0.${i}` }));
      expect(codes).toEqual([401, 401, 401, 429]);
      const register = await other.app.inject({ method: 'POST', url: '/api/v1/auths/register', payload: {} });
      expect(register.statusCode).toBe(400);
    } finally {
      await other.close();
    }
  });

  it('keys by the forwarded client address when TRUST_PROXY=true', async () => {
    const proxied = await createTestApp({ ...limited, TRUST_PROXY: 'true' });
    try {
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push(await login(proxied.app, { 'x-forwarded-for': `10.0.0.${i}` }));
      expect(codes).toEqual([401, 401, 401, 401]);
    } finally {
      await proxied.close();
    }
  });

  it('starts a new window once the old one is over, and housekeeping drops finished windows', async () => {
    const quick = await createTestApp({ ...limited, RATE_LIMIT_LOGIN: '1', RATE_LIMIT_WINDOW_SECONDS: '1' });
    try {
      expect([await login(quick.app), await login(quick.app)]).toEqual([401, 429]);
      await new Promise((r) => setTimeout(r, 1100));
      expect(await login(quick.app)).toBe(401);
      await new Promise((r) => setTimeout(r, 1100));
      expect(await new RateLimitsRepository(quick.ctx.db).pruneExpired()).toBe(1);
    } finally {
      await quick.close();
    }
  });
});

it('TRUST_PROXY parses booleans and address lists', async () => {
  const { loadConfig } = await import('../config.ts');
  const base = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/glimpse-config-test' };
  expect(loadConfig(base).trustProxy).toBe(false);
  expect(loadConfig({ ...base, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
  expect(loadConfig({ ...base, TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8']);
});
