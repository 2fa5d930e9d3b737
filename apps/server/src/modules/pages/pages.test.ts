import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { THEME_BOOT_SCRIPT } from '@glimpse/contract/theme-boot';
import { APP_AFTER_VIDEO_SCRIPT } from '@glimpse/contract/first-paint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTweet, createUser, createVideo, type TestContext } from '../../../test/harness.ts';
import type { UserRow } from '../users/users.repository.ts';
import { builtIndex } from './built-app.fixture.ts';

let t: TestContext;
let owner: UserRow;

const INDEX = builtIndex();

beforeAll(async () => {
  const web = await mkdtemp(path.join(os.tmpdir(), 'glimpse-web-'));
  await writeFile(path.join(web, 'index.html'), INDEX);
  await writeFile(path.join(web, 'embed.html'), '<!doctype html><title>embed</title>');
  t = await createTestApp({ WEB_DIST: web });
  owner = await createUser(t.ctx, { fullName: 'Page Owner', userName: 'pageowner' });
  await t.ctx.settings.update({ name: 'My Tube' });
});
afterAll(() => t.close());

const page = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url });
  return { status: res.statusCode, headers: res.headers, html: res.body };
};
const metaOf = (html: string, key: string) =>
  [...html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)" \/>/g)].filter((m) => m[1] === key).map((m) => m[2]);
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

describe('link previews in the HTML of /video, /channel and /tweet', () => {
  it('gives a public video its title, Open Graph, player card and oEmbed link, all escaped', async () => {
    const video = await createVideo(t.ctx, owner, { title: '"><script>alert(1)</script> & more', description: 'About <this>\nvideo' });
    const { status, headers, html } = await page(`/video/${video.id}`);
    expect(status).toBe(200);
    expect(headers['content-type']).toMatch(/^text\/html/);
    expect(html).not.toContain('<script>alert');
    expect(titleOf(html)).toBe('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; more - My Tube');
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(metaOf(html, 'og:title')).toEqual(['&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; more']);
    expect(metaOf(html, 'description')).toEqual(['About &lt;this&gt; video']);
    expect(metaOf(html, 'og:description')).toEqual(['About &lt;this&gt; video']);
    expect(metaOf(html, 'og:type')).toEqual(['video.other']);
    expect(metaOf(html, 'og:site_name')).toEqual(['My Tube']);
    expect(metaOf(html, 'og:url')).toEqual([`http://glimpse.test/video/${video.id}`]);
    expect(metaOf(html, 'og:video')).toEqual([`http://glimpse.test/embed/${video.id}`]);
    expect(metaOf(html, 'og:video:type')).toEqual(['text/html']);
    expect(metaOf(html, 'og:video:width')).toEqual(['560']);
    expect(metaOf(html, 'og:video:height')).toEqual(['315']);
    expect(metaOf(html, 'twitter:card')).toEqual(['player']);
    expect(metaOf(html, 'twitter:player')).toEqual([`http://glimpse.test/embed/${video.id}`]);
    const oembed = `http://glimpse.test/api/v1/oembed?url=${encodeURIComponent(`http://glimpse.test/video/${video.id}`)}&amp;format=json`;
    expect(html).toContain(`<link rel="alternate" type="application/json+oembed" href="${oembed}"`);
    expect(html).toContain('<div id="root"><div class="fp">');
  });

  it('gives a private, unknown or malformed video only the instance title', async () => {
    const hidden = await createVideo(t.ctx, owner, { privacy: 'private', title: 'Secret plans' });
    for (const url of [`/video/${hidden.id}`, '/video/01900000-0000-7000-8000-000000000000', '/video/nope', '/channel/@nobody', '/tweet/nope']) {
      const { status, html } = await page(url);
      expect(status).toBe(200);
      expect(titleOf(html)).toBe('My Tube');
      expect(html).not.toContain('og:');
      expect(html).not.toContain('Secret plans');
      expect(metaOf(html, 'description')).toEqual(['Glimpse: watch, share and discuss videos']);
    }
  });

  it('gives channel pages a profile card and their feed links, on every tab', async () => {
    for (const url of ['/channel/@pageowner', '/channel/@PageOwner/videos']) {
      const { html } = await page(url);
      expect(titleOf(html)).toBe('Page Owner (@pageowner) - My Tube');
      expect(metaOf(html, 'og:type')).toEqual(['profile']);
      // The channel's root is a not-available page (spec §2): the card points at its videos tab.
      expect(metaOf(html, 'og:url')).toEqual(['http://glimpse.test/channel/@pageowner/videos']);
      expect(metaOf(html, 'twitter:card')).toEqual(['summary']);
      expect(html).toContain('<link rel="alternate" type="application/rss+xml" href="http://glimpse.test/api/v1/feeds/channels/pageowner?format=rss"');
      expect(html).toContain('<link rel="alternate" type="application/atom+xml" href="http://glimpse.test/api/v1/feeds/channels/pageowner?format=atom"');
    }
  });

  it('gives a tweet an article card with its text', async () => {
    const tweet = await createTweet(t.ctx, owner, { content: 'Hello <world>' });
    const { html } = await page(`/tweet/${tweet.id}`);
    expect(titleOf(html)).toBe('Page Owner (@pageowner) - My Tube');
    expect(metaOf(html, 'og:type')).toEqual(['article']);
    expect(metaOf(html, 'og:description')).toEqual(['Hello &lt;world&gt;']);
  });

  it('leaves every other page as built', async () => {
    const { html } = await page('/help');
    expect(html).toBe(INDEX);
  });
});

describe('framing', () => {
  it('lets any site frame /embed/{id} and nothing else', async () => {
    const video = await createVideo(t.ctx, owner);
    const embed = await page(`/embed/${video.id}?autoplay=1`);
    expect(embed.status).toBe(200);
    expect(embed.html).toContain('<title>embed</title>');
    expect(embed.headers['x-frame-options']).toBeUndefined();
    const csp = String(embed.headers['content-security-policy']);
    expect(csp).toContain('frame-ancestors *');
    expect(csp).toContain("default-src 'self'");
    // The inline scripts by their hashes (the theme before first paint, the watch shell's loader of
    // the app), nothing else inline.
    const hash = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
    expect(csp).toContain(`script-src 'self' ${hash(THEME_BOOT_SCRIPT)} ${hash(APP_AFTER_VIDEO_SCRIPT)};`);
    for (const url of ['/', `/video/${video.id}`, '/video/x', '/embed.html']) {
      const res = await page(url);
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(String(res.headers['content-security-policy']), url).toContain("frame-ancestors 'self'");
    }
  });
});
