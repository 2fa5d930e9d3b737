import type { FeedFormat } from '@glimpse/contract';

/**
 * RSS 2.0 and Atom 1.0 documents, written by hand. The well-known builder (`feed`, 6.0) was tried
 * and does not fit: it types every Atom title and summary as HTML (a title "<b>" would be markup
 * to a reader), derives an Atom enclosure's MIME type from the URL's extension, keeps one RSS
 * enclosure per item (the thumbnail and the video cannot both be there), passes control characters
 * through, and its CDATA writer (xml-js) splits only the first "]]>" of a text. The two formats
 * are a few elements each; every text and attribute goes through `text`/`attr` below.
 */

export interface FeedEntry {
  /** The video's page: the entry's link and its stable id. */
  url: string;
  title: string;
  /** Plain text, as the uploader wrote it. */
  description: string;
  published: Date;
  updated: Date;
  author: string;
  thumbnail: string | null;
  /** The progressive mp4, when its owner allows downloads. */
  enclosure: { url: string; length: number; type: string } | null;
}

export interface FeedDocument {
  title: string;
  description: string;
  /** The HTML page the feed mirrors. */
  link: string;
  /** The feed's own URL in this format. */
  self: string;
  author: string | null;
  entries: FeedEntry[];
}

export const FEED_CONTENT_TYPES: Record<FeedFormat, string> = {
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
};

/**
 * What XML 1.0 cannot carry (C0 controls but tab and line breaks, lone surrogates, U+FFFE/U+FFFF),
 * and the C1 controls and DEL that it can but no reader shows: dropped.
 */
const NOT_XML = /[^\t\n\r\u0020-\u007E\u00A0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text content or an attribute value: markup characters escaped, characters XML forbids dropped. */
export const text = (s: string): string => s.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** HTML for an RSS description (readers render it as HTML): the plain text escaped, line breaks kept. */
const html = (s: string): string => text(s).replace(/\r?\n/g, '<br>');

const el = (name: string, content: string, attrs = '') => `<${name}${attrs}>${text(content)}</${name}>`;
const attrs = (a: Record<string, string | number>) =>
  Object.entries(a)
    .map(([k, v]) => ` ${k}="${text(String(v))}"`)
    .join('');

const MEDIA_NS = 'http://search.yahoo.com/mrss/';
const GENERATOR = 'Glimpse';

function rss(doc: FeedDocument, now: Date): string {
  const items = doc.entries.map((e) =>
    [
      '<item>',
      el('title', e.title),
      el('link', e.url),
      el('guid', e.url, attrs({ isPermaLink: 'true' })),
      el('pubDate', e.published.toUTCString()),
      el('dc:creator', e.author),
      // Escaped twice on purpose: the description is HTML, and that HTML is the element's text.
      el('description', html(e.description)),
      e.thumbnail ? `<media:thumbnail${attrs({ url: e.thumbnail })}/>` : '',
      e.enclosure ? `<enclosure${attrs({ url: e.enclosure.url, length: e.enclosure.length, type: e.enclosure.type })}/>` : '',
      '</item>',
    ].join(''),
  );
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<rss version="2.0"${attrs({ 'xmlns:atom': 'http://www.w3.org/2005/Atom', 'xmlns:dc': 'http://purl.org/dc/elements/1.1/', 'xmlns:media': MEDIA_NS })}>`,
    '<channel>',
    el('title', doc.title),
    el('link', doc.link),
    el('description', doc.description),
    `<atom:link${attrs({ href: doc.self, rel: 'self', type: 'application/rss+xml' })}/>`,
    el('lastBuildDate', (doc.entries[0]?.published ?? now).toUTCString()),
    el('generator', GENERATOR),
    ...items,
    '</channel>',
    '</rss>',
    '',
  ].join('\n');
}

function atom(doc: FeedDocument, now: Date): string {
  const person = (name: string) => `<author>${el('name', name)}</author>`;
  const entries = doc.entries.map((e) =>
    [
      '<entry>',
      el('id', e.url),
      el('title', e.title, attrs({ type: 'text' })),
      `<link${attrs({ rel: 'alternate', type: 'text/html', href: e.url })}/>`,
      el('published', e.published.toISOString()),
      el('updated', e.updated.toISOString()),
      person(e.author),
      el('summary', e.description, attrs({ type: 'text' })),
      e.thumbnail ? `<media:thumbnail${attrs({ url: e.thumbnail })}/>` : '',
      e.enclosure ? `<link${attrs({ rel: 'enclosure', type: e.enclosure.type, length: e.enclosure.length, href: e.enclosure.url })}/>` : '',
      '</entry>',
    ].join(''),
  );
  const updated = doc.entries.reduce((latest, e) => (e.updated > latest ? e.updated : latest), doc.entries[0]?.updated ?? now);
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed${attrs({ xmlns: 'http://www.w3.org/2005/Atom', 'xmlns:media': MEDIA_NS })}>`,
    el('id', doc.self),
    el('title', doc.title, attrs({ type: 'text' })),
    el('subtitle', doc.description, attrs({ type: 'text' })),
    el('updated', updated.toISOString()),
    `<link${attrs({ rel: 'alternate', type: 'text/html', href: doc.link })}/>`,
    `<link${attrs({ rel: 'self', type: 'application/atom+xml', href: doc.self })}/>`,
    doc.author ? person(doc.author) : '',
    el('generator', GENERATOR),
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}

/** The document in the asked format; `now` dates an empty feed. */
export function renderFeed(format: FeedFormat, doc: FeedDocument, now = new Date()): string {
  return format === 'atom' ? atom(doc, now) : rss(doc, now);
}
