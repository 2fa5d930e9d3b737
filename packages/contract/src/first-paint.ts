/**
 * First paint of home, search and watch (ADR 017): the server answers these pages with a filled
 * shell and the API's answers to the first requests the app makes there, embedded as JSON, so the
 * app starts with its query cache filled. Both sides name those requests through this file.
 * No zod here: the web app's shell imports it alone (`@glimpse/contract/first-paint`).
 */

/** The `<script type="application/json">` that carries the answers. */
export const FIRST_DATA_ELEMENT_ID = 'glimpse-first-data';

/**
 * The watch page's `<video>` in the shell: it starts loading (and playing) the video at HTML time,
 * and the app's player adopts it instead of starting over (ADR 017, addendum 5).
 */
export const SHELL_VIDEO_ID = 'glimpse-shell-video';

/**
 * Marks a shell page's links to the app's stylesheets, loaded as `media="print"` so they neither
 * block the shell's paint nor sit in its HTML; the app applies them before its first render (ADR 017, addendum 6).
 */
export const APP_CSS_ATTRIBUTE = 'data-app-css';

/** The HLS type the shell's `<source>` names: a browser without HLS of its own skips it (and fetches nothing). */
export const HLS_TYPE = 'application/vnd.apple.mpegurl';

/** What the page carries: API answers (`data` of the envelope) by request key. */
export interface FirstData {
  answers: Record<string, unknown>;
}

export type FirstPage = 'home' | 'search' | 'watch';

type QueryValue = string | number | boolean | null | undefined;

/** A GET's key: its path under /api/v1 and its non-empty parameters in name order (order-free match). */
export function firstDataKey(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return `${path.replace(/^\//, '')}${qs ? `?${qs}` : ''}`;
}

/**
 * Asked on every first-paint page besides the page's own: the instance's public config, which the
 * top bar and the document title read (answered late, it re-rendered the whole first screen).
 */
export const FIRST_SHARED_REQUESTS = [firstDataKey('config')];

/** The app's list pages load this many items per page (spec §4). */
const PAGE = 10;
const VIDEO = /^\/video\/([^/]+)\/?$/;

/**
 * The page a path is, and the GETs the app makes first there (the same parameters as its query
 * functions: home = most viewed; search = the default filters; watch = the video, its similar
 * videos and its first comments, which would otherwise arrive late and push the column down).
 */
export function firstPaintPage(pathname: string, search: URLSearchParams): { page: FirstPage; requests: string[]; videoId?: string } | null {
  if (pathname === '/') return { page: 'home', requests: [firstDataKey('videos', { limit: PAGE, sortBy: 'views' })] };
  if (pathname === '/search' || pathname === '/search/') {
    const query = (search.get('searchText') ?? '').trim();
    if (!query) return { page: 'search', requests: [] };
    const filters = { uploadDate: 'anytime', type: 'video', duration: 'any', sortBy: 'relevance' };
    return { page: 'search', requests: [firstDataKey('videos', { limit: PAGE, query, ...filters })] };
  }
  const [, videoId] = VIDEO.exec(pathname) ?? [];
  if (videoId) {
    const id = encodeURIComponent(videoId);
    const requests = [firstDataKey(`videos/${id}`), firstDataKey(`videos/${id}/similar`, { limit: PAGE }), firstDataKey(`comments/video/${id}`, { limit: PAGE })];
    return { page: 'watch', videoId, requests };
  }
  return null;
}

/** The `<script type="application/json">` listing the app's scripts that the watch shell loads after its video (below). */
export const APP_SCRIPTS_ELEMENT_ID = 'glimpse-app-scripts';

/** How long the watch shell waits at most for its video's first frame before it loads the app (the one wait for it). */
export const SHELL_VIDEO_WAIT_MS = 1500;

/**
 * The watch shell's one inline script (ADR 017, addendum 8): where the browser plays the shell's
 * video itself, the app's scripts are requested once the video has its first frame (`loadeddata`),
 * has stopped loading without one (`suspend`), cannot play its source (`error`), or after
 * SHELL_VIDEO_WAIT_MS; at once where it cannot play HLS. On a slow link the first segments then have
 * the link to themselves instead of sharing it with 20 scripts. The list's first entry is the entry
 * module, the others its module preloads. The CSP allows it by its hash (apps/server/src/app.ts).
 */
export const APP_AFTER_VIDEO_SCRIPT = `(function(){var v=document.getElementById(${JSON.stringify(SHELL_VIDEO_ID)}),e=['loadeddata','suspend','error'],d=0;function go(){if(d)return;d=1;e.forEach(function(t){v&&v.removeEventListener(t,go,true)});JSON.parse(document.getElementById(${JSON.stringify(APP_SCRIPTS_ELEMENT_ID)}).textContent).forEach(function(u,i){var s=document.createElement(i?'link':'script');if(i){s.rel='modulepreload';s.href=u}else{s.type='module';s.src=u}s.crossOrigin='';document.head.appendChild(s)})}if(!v||v.readyState>=2||!v.canPlayType(${JSON.stringify(HLS_TYPE)}))return go();e.forEach(function(t){v.addEventListener(t,go,true)});setTimeout(go,${SHELL_VIDEO_WAIT_MS})})();`;
