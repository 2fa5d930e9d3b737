import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_AFTER_VIDEO_SCRIPT, APP_CSS_ATTRIBUTE, APP_SCRIPTS_ELEMENT_ID, FIRST_DATA_ELEMENT_ID, firstDataKey, HLS_TYPE, SHELL_VIDEO_ID, type FirstData, type VideoResult } from '@glimpse/contract';
import { newId } from '../../lib/ids.ts';
import { videoMediaPrefix } from '../../storage/media-keys.ts';
import { bearer, createTestApp, createUser, createVideo, type TestContext } from '../../../test/harness.ts';
import type { UserRow } from '../users/users.repository.ts';
import { builtIndex } from './built-app.fixture.ts';
import { jsonForScript } from './first-paint.ts';

let t: TestContext;
let owner: UserRow;

// A built app as Vite writes it: index.html with its stylesheet link, the manifest, the CSS.
const INDEX = builtIndex(`    <script type="module" crossorigin src="/assets/main-1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/shared-1.js">
    <link rel="stylesheet" crossorigin href="/assets/main-1.css">`);
const MANIFEST = {
  'index.html': { file: 'assets/main-1.js', isEntry: true, imports: ['_shared-1.js'], css: ['assets/main-1.css'] },
  '_shared-1.js': { file: 'assets/shared-1.js' },
  '_card-1.js': { file: 'assets/card-1.js', imports: ['_shared-1.js'] },
  'src/features/videos/routes/home.tsx': { file: 'assets/home-1.js', imports: ['_card-1.js', 'index.html'] },
  'src/features/search/routes/search.tsx': { file: 'assets/search-1.js', imports: ['_card-1.js'] },
  'src/app/routes/watch.tsx': { file: 'assets/watch-1.js', imports: ['_card-1.js'], dynamicImports: ['node_modules/hls.js/dist/hls.mjs'] },
  'node_modules/hls.js/dist/hls.mjs': { file: 'assets/hls-1.js', isDynamicEntry: true },
};
const CSS = '.app{color:red}';

beforeAll(async () => {
  const web = await mkdtemp(path.join(os.tmpdir(), 'glimpse-web-'));
  await mkdir(path.join(web, '.vite'));
  await mkdir(path.join(web, 'assets'));
  await writeFile(path.join(web, 'index.html'), INDEX);
  await writeFile(path.join(web, '.vite/manifest.json'), JSON.stringify(MANIFEST));
  await writeFile(path.join(web, 'assets/main-1.css'), CSS);
  t = await createTestApp({ WEB_DIST: web });
  owner = await createUser(t.ctx, { fullName: 'Paint Owner', userName: 'paintowner' });
});
afterAll(() => t.close());

const page = async (url: string, headers: Record<string, string> = {}) => {
  const res = await t.app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, headers: res.headers, html: res.body };
};
/** The embedded answers, read the way the app reads them (JSON.parse of the element's text). */
const firstData = (html: string): FirstData => {
  const m = new RegExp(`<script type="application/json" id="${FIRST_DATA_ELEMENT_ID}">([\\s\\S]*?)</script>`).exec(html);
  expect(m, 'embedded data').not.toBeNull();
  return JSON.parse(m![1]!) as FirstData;
};
const rootOf = (html: string) => /<div id="root">([\s\S]*?)<\/div>\n {4}<script type="application\/json"/.exec(html)?.[1] ?? '';
/** What the API itself answers an anonymous visitor. */
const apiAnswer = async (key: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/${key}` });
  return res.statusCode === 200 ? (res.json() as { data: unknown }).data : undefined;
};

describe('first paint of home, search and watch', () => {
  it('embeds on home exactly the API answer to an anonymous visitor, and shows its cards before any script runs', async () => {
    const shown = await createVideo(t.ctx, owner, { title: 'Everyone sees this', views: 500 });
    await createVideo(t.ctx, owner, { title: 'Owner-only private', privacy: 'private', views: 900 });
    await createVideo(t.ctx, owner, { title: 'Link-only unlisted', privacy: 'unlisted', views: 800 });
    // The owner's credentials on the page request change nothing: the page is the public's view.
    const { status, html } = await page('/', await bearer(t.ctx, owner));
    expect(status).toBe(200);
    const key = firstDataKey('videos', { limit: 10, sortBy: 'views' });
    const data = firstData(html);
    expect(Object.keys(data.answers)).toEqual([key, 'config']);
    expect(data.answers[key]).toEqual(await apiAnswer(key));
    expect(data.answers.config).toEqual(await apiAnswer('config'));
    expect(html).not.toContain('Owner-only private');
    expect(html).not.toContain('Link-only unlisted');
    const root = rootOf(html);
    expect(root).toContain('Everyone sees this');
    expect(root).toContain(`href="/video/${shown.id}"`);
    expect(root).toContain('Paint Owner');
  });

  it('keeps a hostile title inert in the markup and intact in the data', async () => {
    const title = '</script><script>alert(1)</script><!-- & \u2028 "quoted"';
    const video = await createVideo(t.ctx, owner, { title, views: 10_000 });
    for (const url of ['/', `/video/${video.id}`, '/search?searchText=quoted']) {
      const { html } = await page(url);
      expect(html, url).not.toContain('<script>alert(1)');
      expect(html.match(/<\/script>/g)?.length, url).toBe(html.match(/<script\b/g)?.length);
      const answers = JSON.stringify(firstData(html).answers);
      expect(answers, url).toContain(JSON.stringify(title).slice(1, -1));
    }
    expect(jsonForScript({ t: '</script><!--\u2028&' })).toBe('{"t":"\\u003c/script\\u003e\\u003c!--\\u2028\\u0026"}');
  });

  const data = (html: string, path: string) => firstData(html).answers[firstDataKey(path)] as VideoResult;

  it('gives the watch page the video, its similar videos and first comments as the API answers them', async () => {
    const video = await createVideo(t.ctx, owner, { title: 'Watch me', thumbnailKey: null });
    const { html } = await page(`/video/${video.id}`);
    const data = firstData(html);
    const keys = [
      firstDataKey(`videos/${video.id}`),
      firstDataKey(`videos/${video.id}/similar`, { limit: 10 }),
      firstDataKey(`comments/video/${video.id}`, { limit: 10 }),
      firstDataKey('config'),
    ];
    expect(Object.keys(data.answers).sort()).toEqual([...keys].sort());
    for (const key of keys) expect(data.answers[key]).toEqual(await apiAnswer(key));
    expect(rootOf(html)).toContain('<h1>Watch me</h1>');
  });

  it("starts the watch page's video in the HTML, with the source the API gives, only when it plays", async () => {
    const withHls = () => {
      const id = newId();
      return { id, hlsKey: `${videoMediaPrefix(id)}/hls/master.m3u8` };
    };
    const video = await createVideo(t.ctx, owner, { ...withHls(), title: 'Plays "now" <b>' });
    const { html } = await page(`/video/${video.id}`);
    const answer = data(html, `videos/${video.id}`);
    const url = answer.video.videoFile.url!;
    expect(url).toMatch(/master\.m3u8$/);
    expect(rootOf(html)).toContain(
      `<video id="${SHELL_VIDEO_ID}" autoplay controls playsinline aria-label="Plays &quot;now&quot; &lt;b&gt;"><source src="${url}" type="${HLS_TYPE}" /></video>`,
    );
    for (const status of ['processing', 'failed'] as const) {
      const unplayable = await createVideo(t.ctx, owner, { ...withHls(), status });
      expect(rootOf((await page(`/video/${unplayable.id}`)).html), status).not.toContain('<video');
    }
  });

  it("loads the app's scripts after the shell video's first frame, by the one inline loader the CSP allows", async () => {
    const id = newId();
    const video = await createVideo(t.ctx, owner, { id, hlsKey: `${videoMediaPrefix(id)}/hls/master.m3u8` });
    const { html, headers } = await page(`/video/${video.id}`);
    // No script or module preload the parser would fetch at once: the video's first segments have the link.
    expect(html).not.toMatch(/<script type="module"|<link rel="modulepreload"/);
    const list = new RegExp(`<script type="application/json" id="${APP_SCRIPTS_ELEMENT_ID}">([^<]*)</script><script>([^<]*)</script>`).exec(html);
    expect(list, 'the loader').not.toBeNull();
    // The entry first (a module script), then index.html's preloads and the route's.
    const [entry, ...preloads] = JSON.parse(list![1]!) as string[];
    expect(entry).toBe('/assets/main-1.js');
    expect(preloads.sort()).toEqual(['/assets/card-1.js', '/assets/shared-1.js', '/assets/watch-1.js']);
    expect(list![2]).toBe(APP_AFTER_VIDEO_SCRIPT);
    expect(html.indexOf(list![0]!)).toBeGreaterThan(html.indexOf(`<video id="${SHELL_VIDEO_ID}"`));
    expect(String(headers['content-security-policy'])).toContain(`'sha256-${createHash('sha256').update(APP_AFTER_VIDEO_SCRIPT).digest('base64')}'`);
    // Without a shell video, the scripts are in the head as built.
    const still = await createVideo(t.ctx, owner);
    expect((await page(`/video/${still.id}`)).html).toContain('<script type="module" fetchpriority="low" crossorigin src="/assets/main-1.js"></script>');
  });

  it("preloads the files a player fetches for a public video's first frame, which then come from the browser's cache", async () => {
    // As our transcode writes them, the top rung listed first here: the player starts with the lowest bandwidth.
    const store = async (id: string) => {
      const hls = `${videoMediaPrefix(id)}/hls`;
      const files: Record<string, string> = {
        'master.m3u8': [
          '#EXTM3U',
          '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="group_audio",NAME="audio_0",DEFAULT=YES,CHANNELS="2",URI="audio/index.m3u8"',
          '#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2",AUDIO="group_audio"',
          '360p/index.m3u8',
          '#EXT-X-STREAM-INF:BANDWIDTH=450000,RESOLUTION=426x240,CODECS="avc1.640015,mp4a.40.2",AUDIO="group_audio"',
          '240p/index.m3u8',
        ].join('\n'),
        '240p/index.m3u8': '#EXTM3U\n#EXT-X-MAP:URI="init_1.mp4"\n#EXTINF:4.000000,\nseg_00000.m4s\n#EXTINF:4.000000,\nseg_00001.m4s\n#EXT-X-ENDLIST\n',
        '360p/index.m3u8': '#EXTM3U\n#EXT-X-MAP:URI="init_2.mp4"\n#EXTINF:4.000000,\nseg_00000.m4s\n#EXT-X-ENDLIST\n',
        'audio/index.m3u8': '#EXTM3U\n#EXT-X-MAP:URI="init_0.mp4"\n#EXTINF:4.010667,\nseg_00000.m4s\n#EXT-X-ENDLIST\n',
        '240p/init_1.mp4': 'init',
        '240p/seg_00000.m4s': 'segment',
        'audio/init_0.mp4': 'init',
        'audio/seg_00000.m4s': 'segment',
      };
      for (const [name, body] of Object.entries(files)) await t.ctx.storage.putBuffer(`${hls}/${name}`, Buffer.from(body));
      return { id, hlsKey: `${hls}/master.m3u8` };
    };
    const preloadsOf = (html: string) => [...html.matchAll(/<link rel="preload" as="fetch" href="([^"]+)" \/>/g)].map((m) => m[1]!);

    const video = await createVideo(t.ctx, owner, await store(newId()));
    const { html } = await page(`/video/${video.id}`);
    const master = data(html, `videos/${video.id}`).video.videoFile.url!;
    const base = master.replace(/master\.m3u8$/, '');
    const preloads = preloadsOf(html);
    expect(preloads).toEqual(['240p/index.m3u8', '240p/init_1.mp4', '240p/seg_00000.m4s', 'audio/index.m3u8', 'audio/init_0.mp4', 'audio/seg_00000.m4s'].map((f) => base + f));
    // In the head before any script (on a slow link they would queue behind them).
    expect(html.indexOf(preloads[0]!)).toBeLessThan(html.indexOf('<script'));
    // Each is served, and stored by the browser for its player's own request of it.
    for (const url of preloads) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
    }

    // Unlisted: its media is served by signed, no-store links, which a preload would only load twice.
    const unlisted = await createVideo(t.ctx, owner, { ...(await store(newId())), privacy: 'unlisted' });
    const linked = (await page(`/video/${unlisted.id}`)).html;
    expect(rootOf(linked)).toContain(`<video id="${SHELL_VIDEO_ID}"`);
    expect(preloadsOf(linked)).toEqual([]);
    // Playlists that are not stored: the page goes without.
    const id = newId();
    const missing = await createVideo(t.ctx, owner, { id, hlsKey: `${videoMediaPrefix(id)}/hls/master.m3u8` });
    const bare = await page(`/video/${missing.id}`);
    expect(bare.status).toBe(200);
    expect(rootOf(bare.html)).toContain(`<video id="${SHELL_VIDEO_ID}"`);
    expect(preloadsOf(bare.html)).toEqual([]);
  });

  it('embeds nothing for a video the public may not see, whoever asks for the page', async () => {
    const hidden = await createVideo(t.ctx, owner, { title: 'Secret watch', privacy: 'private' });
    const { status, html } = await page(`/video/${hidden.id}`, await bearer(t.ctx, owner));
    expect(status).toBe(200);
    expect(html).not.toContain('Secret watch');
    expect(firstData(html).answers[firstDataKey(`videos/${hidden.id}`)]).toBeUndefined();
    // Unlisted: the API shows it to anyone with the link, so the page does too.
    const unlisted = await createVideo(t.ctx, owner, { title: 'By link only', privacy: 'unlisted' });
    const linked = await page(`/video/${unlisted.id}`);
    expect(firstData(linked.html).answers[firstDataKey(`videos/${unlisted.id}`)]).toEqual(await apiAnswer(firstDataKey(`videos/${unlisted.id}`)));
  });

  it('answers search with the first page of the default filters, and an empty search with the config only', async () => {
    await createVideo(t.ctx, owner, { title: 'Zebra crossing' });
    const { html } = await page('/search?searchText=%20zebra%20&t=123');
    const key = firstDataKey('videos', { limit: 10, query: 'zebra', uploadDate: 'anytime', type: 'video', duration: 'any', sortBy: 'relevance' });
    expect(firstData(html).answers[key]).toEqual(await apiAnswer(key));
    expect(rootOf(html)).toContain('Zebra crossing');
    // An empty search asks nothing of its own; every page carries the instance's public config.
    expect(firstData((await page('/search')).html).answers).toEqual({ config: await apiAnswer('config') });
  });

  it('preloads the route chunks the shell does not load, defers the app CSS behind the shell CSS and compresses the page', async () => {
    const video = await createVideo(t.ctx, owner);
    const watch = await page(`/video/${video.id}`);
    const preloads = [...watch.html.matchAll(/<link rel="modulepreload" fetchpriority="low" crossorigin href="([^"]+)"/g)].map((m) => m[1]);
    // index.html's own tag, then the route's; never hls.js, which browsers that play HLS themselves do not load.
    expect(preloads.sort()).toEqual(['/assets/card-1.js', '/assets/shared-1.js', '/assets/watch-1.js']);
    const id = newId();
    await createVideo(t.ctx, owner, { id, hlsKey: `${videoMediaPrefix(id)}/hls/master.m3u8` });
    expect((await page(`/video/${id}`)).html).not.toContain('hls-1.js');
    // The shell's own CSS inline; the app's sheet neither inline nor blocking (the app applies it).
    expect(watch.html).toMatch(/<style>:root\{--fp-canvas:#fff;[^<]*:root\[data-theme=dark\]\{color-scheme:dark;[^}]*--fp-fg:#f4f4f5;[^<]*\.fp\{[^}]*color:var\(--fp-fg\)\}[^<]*<\/style>/);
    expect(watch.html).not.toContain(CSS);
    expect(watch.html.match(/<link rel="stylesheet"[^>]*>/g)).toEqual([`<link rel="stylesheet" href="/assets/main-1.css" media="print" ${APP_CSS_ATTRIBUTE} />`]);
    // A page without a shell waits for the app: its sheet inline, and a disabled link (never
    // fetched) naming it for Vite's loader of lazy chunks.
    const tweet = await page(`/tweet/${newId()}`);
    expect(tweet.html).toContain(`<style>${CSS}</style>`);
    expect(tweet.html.match(/<link rel="stylesheet"[^>]*>/g)).toEqual(['<link rel="stylesheet" href="/assets/main-1.css" disabled />']);
    const home = await page('/');
    expect(home.html).toContain('href="/assets/home-1.js"');
    expect(home.html).not.toContain('hls-1.js');
    const br = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(home.html);
  });

  it('preloads the first image with high priority, before any script (on a slow link it would queue behind them)', async () => {
    const id = newId();
    await createVideo(t.ctx, owner, { id, title: 'Top of home', views: 1_000_000, thumbnailKey: `${videoMediaPrefix(id)}/thumbnail.jpg` });
    const { html } = await page('/');
    const first = /<img src="([^"]+)" alt="" width="320" height="180" fetchpriority="high"/.exec(rootOf(html));
    expect(first?.[1]).toMatch(/thumbnail\.jpg$/);
    const preload = html.indexOf(`<link rel="preload" as="image" href="${first![1]}" fetchpriority="high" />`);
    expect(preload).toBeGreaterThan(0);
    expect(preload).toBeLessThan(html.indexOf('<script'));
  });

  it('fetches the app at low priority where a shell paints without it, and as built everywhere else', async () => {
    const video = await createVideo(t.ctx, owner);
    for (const url of ['/', '/search?searchText=zebra', `/video/${video.id}`]) {
      const { html } = await page(url);
      const tags = html.match(/<(script type="module"|link rel="modulepreload")[^>]*>/g) ?? [];
      expect(tags.length, url).toBeGreaterThan(1);
      for (const tag of tags) expect(tag, url).toContain(' fetchpriority="low"');
    }
    // A channel page has its link-preview tags but no shell: its app is its first paint.
    const channel = await page('/channel/@paintowner');
    expect(channel.html).toContain('<meta property="og:type" content="profile" />');
    expect(channel.html).toContain('<script type="module" crossorigin src="/assets/main-1.js"></script>');
    expect(channel.html).not.toContain('fetchpriority="low"');
  });
});
