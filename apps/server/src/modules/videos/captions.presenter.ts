import type { VideoCaption } from '@glimpse/contract';
import type { MediaUrls } from '../media-links/media-links.ts';

/** The captions of one video as the API lists them: URLs per the video's media rules (ADR 011). */
export function toCaptions(
  media: MediaUrls,
  videoId: string,
  publicToken: string | null,
  rows: { lang: string; label: string; storageKey: string }[],
): VideoCaption[] {
  const url = media.forVideo(videoId, publicToken);
  return rows.map((r) => ({ lang: r.lang, label: r.label, url: url(r.storageKey) }));
}
