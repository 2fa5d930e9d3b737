import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Fastify from 'fastify';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { DATA_HEADERS, installSecurityHeaders, SecurityHeaders, type SecurityPolicy } from './security-headers.ts';

const policy = (origins: readonly string[]): SecurityPolicy => ({
  contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], mediaSrc: ["'self'", origins.join(' ') || "'self'"], upgradeInsecureRequests: null } },
  crossOriginEmbedderPolicy: false,
});

const response = () => new ServerResponse(new IncomingMessage(new Socket()));

describe('SecurityHeaders', () => {
  it("sets exactly what helmet's middleware sets, and makes them again only when the state is another value", () => {
    let origins: readonly string[] = ['https://a.example'];
    let made = 0;
    const headers = new SecurityHeaders((state: readonly string[]) => (made++, policy(state)), () => origins);

    const ours = response();
    headers.apply(ours);
    const helmets = response();
    helmet(policy(origins))(helmets.req, helmets, () => {});
    expect(ours.getHeaders()).toEqual(helmets.getHeaders());
    expect(Object.keys(ours.getHeaders()).length).toBeGreaterThan(8);
    expect(ours.getHeader('content-security-policy')).toContain("media-src 'self' https://a.example");

    headers.apply(response());
    expect(made).toBe(1);
    origins = ['https://a.example', 'https://b.example'];
    const after = response();
    headers.apply(after);
    expect(made).toBe(2);
    expect(after.getHeader('content-security-policy')).toContain("media-src 'self' https://a.example https://b.example");
  });

  it("puts the pages' headers on every answer (a 404 too), the data policy under the API's prefix, and a route's own where it has them", async () => {
    const app = Fastify();
    const headers = new SecurityHeaders(policy, () => ['https://a.example']);
    installSecurityHeaders(app, { pages: headers, data: DATA_HEADERS, dataPrefix: '/api/' });
    const framable = headers.with((p) => ({
      ...p,
      contentSecurityPolicy: { directives: { ...p.contentSecurityPolicy.directives, frameAncestors: ['*'] } },
      frameguard: false,
    }));
    app.get('/page', async () => 'page');
    app.get('/embed', { config: { securityHeaders: framable } }, async () => 'embed');
    app.get('/api/thing', async () => ({ ok: true }));

    const page = await app.inject('/page');
    const missing = await app.inject('/nothing');
    const embed = await app.inject('/embed');
    const data = await app.inject('/api/thing');
    const dataMissing = await app.inject('/api/nothing');
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
    expect(embed.headers['x-frame-options']).toBeUndefined();
    expect(embed.headers['content-security-policy']).toContain('frame-ancestors *');
    expect(embed.headers['content-security-policy']).toContain("media-src 'self' https://a.example");
    // JSON is never a document: nothing may load or frame it, and the policy is a tenth of a page's.
    for (const res of [data, dataMissing]) {
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
    expect(String(page.headers['content-security-policy']).length).toBeGreaterThan(String(data.headers['content-security-policy']).length * 2);
    await app.close();
  });
});
