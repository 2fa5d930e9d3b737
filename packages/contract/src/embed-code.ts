// Zod-free: the watch page's share dialog uses these on its first load (ADR 017).

/** Where a video's minimal player lives: the one page other sites may frame. */
export const embedPath = (videoId: string) => `/embed/${encodeURIComponent(videoId)}`;

/** The embed's default frame size (16:9), and the oEmbed answer's unless maxwidth/maxheight say less. */
export const EMBED_SIZE = { width: 560, height: 315 } as const;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside HTML content and quoted attribute values (titles are user text). */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/** The `<iframe>` other sites paste: the share dialog's embed code and oEmbed's `html` are this one markup. */
export function embedCode(frame: { src: string; title: string; width: number; height: number }): string {
  return (
    `<iframe src="${escapeHtml(frame.src)}" width="${frame.width}" height="${frame.height}" title="${escapeHtml(frame.title)}" ` +
    `frameborder="0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen></iframe>`
  );
}
