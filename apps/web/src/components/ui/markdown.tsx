import clsx from 'clsx';
import MarkdownIt from 'markdown-it';
import { useMemo } from 'react';

/** A scheme-less (relative) link, or one of these schemes; everything else (javascript:, data:, vbscript:, file:...) is refused. */
const SAFE_SCHEMES = ['http:', 'https:', 'mailto:'];
const SCHEME = /^\s*([a-z][a-z0-9+.-]*:)/i;

export function isSafeLink(url: string): boolean {
  // Browsers ignore control characters and whitespace inside a scheme ("java\tscript:").
  // eslint-disable-next-line no-control-regex -- stripping them is the point
  const squeezed = url.replace(/[\u0000-\u0020\u007F-\u009F]/g, '');
  const scheme = SCHEME.exec(squeezed)?.[1]?.toLowerCase();
  return scheme === undefined || SAFE_SCHEMES.includes(scheme);
}

/**
 * Markdown without raw HTML (written as text) and without images (they would load from anywhere);
 * links only to safe schemes, each with rel="nofollow noopener noreferrer".
 */
const md = new MarkdownIt({ html: false, linkify: true });
md.disable('image');
md.validateLink = isSafeLink;
md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  tokens[idx]!.attrSet('rel', 'nofollow noopener noreferrer');
  return self.renderToken(tokens, idx, options);
};

export const renderMarkdown = (source: string): string => md.render(source);

const prose = clsx(
  'break-words text-sm leading-6 text-fg',
  '[&_h1]:mb-3 [&_h1]:mt-5 [&_h1]:text-2xl [&_h1]:font-semibold [&_h2]:mb-2 [&_h2]:mt-4 [&_h2]:text-xl [&_h2]:font-semibold',
  '[&_h3]:mb-2 [&_h3]:mt-3 [&_h3]:text-lg [&_h3]:font-semibold [&_p]:my-2 [&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-2 [&_ol]:list-decimal [&_ol]:pl-6',
  '[&_a]:text-link [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-line [&_blockquote]:pl-3 [&_blockquote]:text-fg-muted',
  '[&_code]:rounded [&_code]:bg-surface-subtle [&_code]:px-1 [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-surface-subtle [&_pre]:p-3 [&_hr]:my-4',
  '[&>*:first-child]:mt-0',
);

/** Renders trusted-shape markdown: markdown-it escapes every HTML character of the source, so the output holds only its own tags. */
export function Markdown({ source, className }: { source: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  return <div className={clsx(prose, className)} dangerouslySetInnerHTML={{ __html: html }} />;
}
