import type { Rendition, Video } from './videos.ts';

// Zod-free (types only), so the web app's entry can use these without the schemas (ADR 017).

/** Still being made: not playable yet, or playable with more rungs to come (ADR 019). Pages poll while it holds. */
export const moreRenditionsComing = (v: { status: Video['status']; renditions?: readonly Rendition[] }): boolean =>
  v.status === 'processing' || (v.status === 'ready' && (v.renditions ?? []).some((r) => !r.ready));

/** How many rungs play: a new one changes the master playlist (the player reloads it). */
export const readyRenditions = (v: { renditions?: readonly Rendition[] }): number => (v.renditions ?? []).filter((r) => r.ready).length;

/** The HLS source a player may start, or null while the video is processing, failed or has none (the shell and the player ask the same). */
export const playableSource = (v: { status: Video['status']; videoFile?: { url: string | null } | null }): string | null =>
  v.status === 'ready' && v.videoFile?.url ? v.videoFile.url : null;
