import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX, APP_CSS_ATTRIBUTE, escapeHtml, FIRST_DATA_ELEMENT_ID, FIRST_SHARED_REQUESTS, firstPaintPage, HLS_TYPE, playableSource, SHELL_VIDEO_ID, type FirstData, type FirstPage } from '@glimpse/contract';

/**
 * First paint of home, search and watch (ADR 017): the page arrives with a static shell of its
 * first content (cards, the watch poster), the API's answers to the app's first requests as JSON,
 * the app's CSS inline and its route chunks and first image preloaded. The app replaces the shell
 * on its first render and stays a single-page app from there.
 */

/** The web modules of the three pages (apps/web/src/app/router.tsx), as keys of the Vite manifest. */
const ROUTE_MODULES: Record<FirstPage, string> = {
  home: 'src/features/videos/routes/home.tsx',
  search: 'src/features/search/routes/search.tsx',
  watch: 'src/app/routes/watch.tsx',
};

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

interface Card {
  _id: string;
  title: string;
  thumbnail: { url: string } | null;
  views: number;
  owner?: { fullName: string; userName: string } | null;
}
type WatchVideo = Card & { status: 'processing' | 'ready' | 'failed'; videoFile?: { url: string | null } | null };

/** JSON inside `<script>`: nothing in it may close the element or open a comment (hostile titles). */
export const jsonForScript = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** The build's manifest and CSS, read once; without a manifest (an old build) pages get no preloads. */
export class BuildAssets {
  private loaded: Promise<{ manifest: Manifest; css: Map<string, string> }> | undefined;

  constructor(private readonly webDist: string) {}

  load() {
    this.loaded ??= (async () => {
      let manifest: Manifest = {};
      try {
        manifest = JSON.parse(await readFile(path.join(this.webDist, '.vite/manifest.json'), 'utf8')) as Manifest;
      } catch {
        // No manifest: the pages keep index.html's own tags.
      }
      const css = new Map<string, string>();
      const entry = manifest['index.html'];
      for (const key of entry ? closure(manifest, 'index.html') : [])
        for (const file of manifest[key]?.css ?? []) css.set(file, await readFile(path.join(this.webDist, file), 'utf8'));
      return { manifest, css };
    })();
    return this.loaded;
  }

  /** `<link rel="modulepreload">` for the route's chunks that index.html does not already load. */
  async preloads(page: FirstPage): Promise<string[]> {
    const { manifest } = await this.load();
    if (!manifest[ROUTE_MODULES[page]]) return [];
    const shell = closure(manifest, 'index.html');
    const keys = [...closure(manifest, ROUTE_MODULES[page])];
    const files = new Set(keys.filter((k) => !shell.has(k)).map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js')));
    return [...files].map((f) => `<link rel="modulepreload" crossorigin href="/${escapeHtml(f)}" />`);
  }

  /**
   * A shell page's stylesheet links made non-blocking: the shell paints with its own inline CSS, and
   * the browser fetches and parses the app's sheet as `print` (without holding the paint up, off the
   * HTML's parse) until the app applies it before its first render (ADR 017, addendum 6). Inlined, the
   * sheet was two thirds of every shell page and its parse the page's longest task.
   */
  async deferCss(html: string): Promise<string> {
    const { css } = await this.load();
    let out = html;
    for (const file of css.keys()) out = out.replace(sheetLink(file), () => `<link rel="stylesheet" href="/${file}" media="print" ${APP_CSS_ATTRIBUTE} />`);
    return out;
  }

  /** index.html's stylesheet links replaced by the sheets themselves: no render-blocking request. */
  async inlineCss(html: string): Promise<string> {
    const { css } = await this.load();
    let out = html;
    for (const [file, text] of css) {
      const link = sheetLink(file);
      // The disabled link is never fetched; it tells Vite's loader of lazy chunks that the sheet is
      // on the page already (it would otherwise fetch it again and hold the route's render until it came).
      out = out.replace(link, () => `<style>${text.replace(/<\/style/gi, '<\\/style')}</style><link rel="stylesheet" href="/${file}" disabled />`);
    }
    return out;
  }
}

/** index.html's `<link rel="stylesheet">` of one built sheet. */
const sheetLink = (file: string) => new RegExp(`<link rel="stylesheet"[^>]*href="/${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`);

/** A chunk and everything it imports statically. */
function closure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key) || !manifest[key]) return seen;
  seen.add(key);
  for (const k of manifest[key].imports ?? []) closure(manifest, k, seen);
  return seen;
}

/**
 * The API's answers to the page's first requests, asked as an anonymous visitor through the API
 * itself: the embedded data is exactly what the API shows the public (the page request carries no
 * token; a logged-in app ignores these and asks with its own). A refused request is left out.
 */
export async function firstAnswers(app: FastifyInstance, requests: string[]): Promise<FirstData> {
  const answers: Record<string, unknown> = {};
  await Promise.all(
    requests.map(async (key) => {
      const res = await app.inject({ method: 'GET', url: `${API_PREFIX}/${key}`, headers: { accept: 'application/json' } });
      if (res.statusCode === 200) answers[key] = (res.json() as { data: unknown }).data;
    }),
  );
  return { answers };
}

export interface FirstPaint {
  /** Tags for the head before its scripts: the preload of the first image (the page's largest paint). */
  early: string[];
  /** Tags for the head: preloads of the route's chunks, the shell's styles. */
  head: string[];
  /** The static shell, inside #root (the app's first render replaces it). */
  root: string;
  /** After #root: the embedded answers. */
  after: string;
  /** The watch shell's video plays before the app's scripts load (ADR 017, addendum 8). */
  appAfterVideo?: boolean;
}

const e = escapeHtml;
const views = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'view' : 'views'}`;
const imageUrl = (card: Card) => card.thumbnail?.url ?? null;

function cardMarkup(card: Card, index: number): string {
  const src = imageUrl(card);
  const img = src
    ? `<img src="${e(src)}" alt="" width="320" height="180"${index < 2 ? ' fetchpriority="high"' : index >= 4 ? ' loading="lazy"' : ''} />`
    : '';
  const meta = [card.owner?.fullName, views(card.views)].filter(Boolean).map((t) => e(String(t))).join(' · ');
  return `<li class="fp-card"><a href="/video/${e(encodeURIComponent(card._id))}"><span class="fp-thumb">${img}</span><span class="fp-title">${e(card.title)}</span></a><span class="fp-meta">${meta}</span></li>`;
}

const listOf = (data: unknown, key: string): Card[] => {
  const list = (data as Record<string, unknown> | null)?.[key];
  return Array.isArray(list) ? (list as Card[]) : [];
};

/**
 * Small and self-contained: this is the page's critical CSS, and the shell must look right before
 * (and without) the app's own styles, which load without blocking it (`deferCss`). The watch poster
 * has the app player's box (full width on a phone), so the app's player is not a larger, later LCP
 * candidate. Colours are the app's own (index.css), dark under the same two selectors: the
 * visitor's choice, else the system's.
 */
const SHELL_DARK = `color-scheme:dark;--fp-canvas:#0f0f11;--fp-surface:#1c1c20;--fp-fg:#f4f4f5;--fp-muted:#a1a1aa;--fp-line:#2e2e33;--fp-field:#71717a;--fp-thumb:#27272a`;
const SHELL_CSS = `:root{--fp-canvas:#fff;--fp-surface:#fff;--fp-fg:#18181b;--fp-muted:#52525b;--fp-line:#e4e4e7;--fp-field:#d4d4d8;--fp-thumb:#e4e4e7}:root[data-theme=dark]{${SHELL_DARK}}@media (prefers-color-scheme:dark){:root:not([data-theme=light]){${SHELL_DARK}}}body{margin:0;background:var(--fp-canvas)}.fp{font-family:ui-sans-serif,system-ui,sans-serif;color:var(--fp-fg)}.fp-bar{position:sticky;top:0;display:flex;align-items:center;gap:1rem;height:56px;padding:0 1rem;background:var(--fp-surface);border-bottom:1px solid var(--fp-line)}.fp-logo{font-weight:700;font-size:1.125rem;color:inherit;text-decoration:none}.fp-bar form{flex:1;max-width:36rem;margin:0 auto}.fp-bar input{box-sizing:border-box;width:100%;height:40px;padding:0 1rem;border:1px solid var(--fp-field);border-radius:9999px;font:inherit;color:inherit;background:var(--fp-surface)}.fp-main{padding:1.5rem 1rem}.fp-grid{display:grid;gap:1.5rem 1rem;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));list-style:none;margin:0;padding:0}.fp-card a{color:inherit;text-decoration:none}.fp-thumb{display:block;aspect-ratio:16/9;overflow:hidden;border-radius:.75rem;background:var(--fp-thumb)}.fp-thumb img,.fp-player img{display:block;width:100%;height:100%;object-fit:cover}.fp-title{display:block;margin-top:.5rem;font-weight:600;line-height:1.3}.fp-meta{display:block;font-size:.875rem;color:var(--fp-muted)}.fp-player{position:relative;aspect-ratio:16/9;background:#000}.fp-player video{position:absolute;inset:0;width:100%;height:100%}.fp-watch{margin:-1.5rem -1rem 0}.fp-watch h1,.fp-watch p{margin:.75rem .75rem .25rem}.fp-watch h1{font-size:1.25rem}@media (min-width:640px){.fp-watch{margin:0}.fp-player{border-radius:.75rem;overflow:hidden}}`;

/**
 * The watch page's video, started by the HTML itself: on a phone its playlists and first segments
 * load while the app's scripts do, and the player adopts the element (ADR 017, addendum 5). No
 * poster: it is transparent over the shell's image until its first frame. Autoplay as the player's
 * own (the browser's policy decides); a browser without HLS of its own skips the source.
 */
function shellVideo(video: WatchVideo): string {
  const src = playableSource(video);
  if (!src) return '';
  // The browser's own controls until the player adopts it: the app's scripts may come seconds later (addendum 8).
  return `<video id="${SHELL_VIDEO_ID}" autoplay controls playsinline aria-label="${e(video.title)}"><source src="${e(src)}" type="${HLS_TYPE}" /></video>`;
}

/**
 * The head tags and #root content of a first-paint page, or null for any other path. `site` is
 * the instance's name (the shell's logo text); `videoStart` names the files after a master
 * playlist that a player fetches for its first frame (HlsStart).
 */
export async function firstPaint(
  app: FastifyInstance,
  assets: BuildAssets,
  url: { pathname: string; search: URLSearchParams },
  site: string,
  videoStart: (masterUrl: string) => Promise<string[]>,
): Promise<FirstPaint | null> {
  const first = firstPaintPage(url.pathname, url.search);
  if (!first) return null;
  const data = await firstAnswers(app, [...first.requests, ...FIRST_SHARED_REQUESTS]);
  const video = first.page === 'watch' ? (data.answers[first.requests[0]!] as { video?: WatchVideo } | undefined)?.video : undefined;
  // Not hls.js: browsers that play HLS themselves (phones, Safari, Chromium) never load it (playback-engine.ts).
  const head = await assets.preloads(first.page);
  let main = '';
  let lcp: string | null = null;
  if (first.page === 'watch') {
    if (video) {
      lcp = imageUrl(video);
      main = `<div class="fp-watch"><div class="fp-player">${lcp ? `<img src="${e(lcp)}" alt="" fetchpriority="high" />` : ''}${shellVideo(video)}</div><h1>${e(video.title)}</h1><p class="fp-meta">${[video.owner?.fullName, views(video.views)].filter(Boolean).map((t) => e(String(t))).join(' · ')}</p></div>`;
    }
  } else {
    const cards = first.requests[0] ? listOf(data.answers[first.requests[0]], 'data') : [];
    lcp = cards[0] ? imageUrl(cards[0]) : null;
    const query = url.search.get('searchText')?.trim();
    const heading = first.page === 'home' ? '<h1 class="fp-meta" style="position:absolute;left:-9999px">Trending videos</h1>' : query ? `<h1 class="fp-meta">Results for ${e(query)}</h1>` : '';
    main = `${heading}${cards.length ? `<ul class="fp-grid">${cards.map(cardMarkup).join('')}</ul>` : ''}`;
  }
  // Before the module preloads: on a slow link the image otherwise queues behind 20-30 scripts.
  const early = lcp ? [`<link rel="preload" as="image" href="${e(lcp)}" fetchpriority="high" />`] : [];
  // The shell video's playlists and first segments, all at once: its player would ask for them one
  // after another, each waiting for the app's scripts, and find them in the HTTP cache instead.
  const src = video && playableSource(video);
  if (src) for (const file of await videoStart(src)) early.push(`<link rel="preload" as="fetch" href="${e(file)}" />`);
  head.push(`<style>${SHELL_CSS}</style>`);
  const query = first.page === 'search' ? e(url.search.get('searchText') ?? '') : '';
  const bar = `<header class="fp-bar"><a class="fp-logo" href="/">${e(site)}</a><form action="/search" role="search"><input type="search" name="searchText" value="${query}" aria-label="Search" placeholder="Search" /></form></header>`;
  const root = `<div class="fp">${bar}<main class="fp-main">${main}</main></div>`;
  const json = `<script type="application/json" id="${FIRST_DATA_ELEMENT_ID}">${jsonForScript(data)}</script>`;
  return { early, head, root, after: json, appAfterVideo: Boolean(src) };
}
