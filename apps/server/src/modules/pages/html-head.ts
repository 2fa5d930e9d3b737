import { readFile } from 'node:fs/promises';
import { APP_AFTER_VIDEO_SCRIPT, APP_SCRIPTS_ELEMENT_ID, escapeHtml } from '@glimpse/contract';
import { jsonForScript } from './first-paint.ts';

/** What a page's head tells crawlers, which run no JavaScript (docs/embeds.md). */
export interface PageMeta {
  /** The document title, already "<item> - <instance>" or the bare instance name. */
  title: string;
  /** Only for an item the public may see; without it the page keeps the app's generic description. */
  description?: string;
  /** `<meta property>` pairs (Open Graph) and `<meta name>` pairs (Twitter), in order. */
  properties?: [string, string][];
  names?: [string, string][];
  /** `<link rel="alternate">`s: oEmbed discovery, channel feeds. */
  alternates?: { type: string; href: string; title?: string }[];
}

const TITLE = /<title>[\s\S]*?<\/title>\s*/i;
const DESCRIPTION = /<meta\s+name="description"[^>]*>\s*/i;
const ROOT = /<div id="root"><\/div>/;
/** The app's module script and module preloads (index.html's and the route's). */
const APP_SCRIPTS = /<(script type="module"|link rel="modulepreload")/g;
const ENTRY_SCRIPT = /<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>\s*/g;
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*\shref="([^"]+)"[^>]*>\s*/g;

/**
 * The page with its module script and preloads taken out and loaded by APP_AFTER_VIDEO_SCRIPT
 * instead, after the shell video's first frame (ADR 017, addendum 8). The built tags carry no
 * entities in their URLs (Vite's asset names), so the attribute values are the URLs.
 */
function appAfterVideo(page: string): { page: string; loader: string } {
  const urls: string[] = [];
  const collect = (_tag: string, url: string) => {
    urls.push(url);
    return '';
  };
  const stripped = page.replace(ENTRY_SCRIPT, collect).replace(MODULE_PRELOAD, collect);
  const loader = `<script type="application/json" id="${APP_SCRIPTS_ELEMENT_ID}">${jsonForScript(urls)}</script><script>${APP_AFTER_VIDEO_SCRIPT}</script>`;
  return { page: stripped, loader };
}

/** The built index.html, read once and split where the page's own tags go. */
export class HeadTemplate {
  private parts: Promise<{ head: string; tail: string; description: string }> | undefined;

  constructor(private readonly file: string) {}

  private load() {
    this.parts ??= readFile(this.file, 'utf8').then((html) => {
      const description = DESCRIPTION.exec(html)?.[0].trim() ?? '';
      const at = html.search(/<\/head>/i);
      if (at < 0) throw new Error(`${this.file} has no </head>`);
      const head = html.slice(0, at).replace(TITLE, '').replace(DESCRIPTION, '');
      return { head, tail: html.slice(at), description };
    });
    return this.parts;
  }

  /**
   * index.html with the page's title and tags; every value is escaped (user text). `body` (first
   * paint, ADR 017) adds head tags (`early` ones before the head's first script), fills #root and
   * puts markup after it; the caller escapes it.
   */
  async render(meta: PageMeta, body?: { early?: string[]; head: string[]; root: string; after: string; appAfterVideo?: boolean }): Promise<string> {
    const { head: built, tail, description } = await this.load();
    const early = body?.early ?? [];
    const at = built.search(/<script/i);
    const head = early.length && at >= 0 ? `${built.slice(0, at)}${early.join('\n    ')}\n    ${built.slice(at)}` : built;
    const e = escapeHtml;
    const tags = [`<title>${e(meta.title)}</title>`];
    tags.push(meta.description === undefined ? description : `<meta name="description" content="${e(meta.description)}" />`);
    for (const [property, content] of meta.properties ?? []) tags.push(`<meta property="${e(property)}" content="${e(content)}" />`);
    for (const [name, content] of meta.names ?? []) tags.push(`<meta name="${e(name)}" content="${e(content)}" />`);
    for (const a of meta.alternates ?? [])
      tags.push(`<link rel="alternate" type="${e(a.type)}" href="${e(a.href)}"${a.title ? ` title="${e(a.title)}"` : ''} />`);
    if (at < 0) tags.push(...early);
    tags.push(...(body?.head ?? []));
    let page = `${head}  ${tags.filter(Boolean).join('\n    ')}\n  `;
    let after = body?.after ?? '';
    if (body?.appAfterVideo) {
      const deferred = appAfterVideo(page);
      page = deferred.page;
      after += deferred.loader;
    } else if (body) {
      // A filled shell paints without the app: its scripts yield the link to the shell's image and are
      // not render-blocking, which Lighthouse's simulation reads from their priority.
      page = page.replace(APP_SCRIPTS, '<$1 fetchpriority="low"');
    }
    const rest = body ? tail.replace(ROOT, () => `<div id="root">${body.root}</div>\n    ${after}`) : tail;
    return `${page}${rest}`;
  }
}
