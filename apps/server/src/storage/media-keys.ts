/**
 * Where each kind of file lives in storage (ADR 011). The prefix decides who may read a file:
 * - `videos/{id}/`: a video's derived media (HLS ladder, poster, thumbnails, storyboard), served
 *   only through the media route's checks (public token or signed link), never at its bare key;
 * - `originals/{id}/`: the uploaded original, never served as media; its owner downloads it;
 * - `users/`, `tweets/`: profile and tweet images, public like the pages that show them.
 */
export const videoMediaPrefix = (videoId: string): string => `videos/${videoId}`;

/**
 * The upload as received (metadata and all): a private key, read by the transcoder and the owner's
 * download. (Before ADR 011 it was `videos/{id}/source.mp4`; migration 0630 moved it.)
 */
export const originalKey = (videoId: string): string => `originals/${videoId}/source.mp4`;

/**
 * A caption's WebVTT file: a fresh name per upload, so a public URL's bytes never change (ADR 011's
 * immutable caching). Under the video's media prefix: served and deleted like its other media.
 */
export const captionKey = (videoId: string, lang: string, nonce: string): string => `${videoMediaPrefix(videoId)}/captions/${lang}-${nonce}.vtt`;

/** The subtitle playlist naming a caption file (written when served, never stored). */
export const captionPlaylistKey = (vttKey: string): string => vttKey.replace(/\.vtt$/, '.m3u8');

/** Every prefix holding a video's files: deleting a video removes them all. */
export const videoPrefixes = (videoId: string): string[] => [videoMediaPrefix(videoId), `originals/${videoId}`];

/** Every profile image of an account (deleting the account removes the folder). */
export const userFilesPrefix = (userId: string): string => `users/${userId}/`;

/** Start of a profile image's key (a fresh name follows each upload). */
export const userImagePrefix = (userId: string, kind: string): string => `users/${userId}/${kind}-`;
export const tweetImageFolder = (tweetId: string): string => `tweets/${tweetId}`;

/** Top-level folders whose files anyone may load at `/media/{key}`. */
export const PUBLIC_IMAGE_FOLDERS = ['users', 'tweets'] as const;

/**
 * An unfinished upload's chunks (ADR 018): in the storage, so any API process takes any chunk. A
 * fresh name per request: a failed or retried request never overwrites a chunk already recorded.
 */
export const userUploadsPrefix = (userId: string): string => `uploads/${userId}`;
export const uploadPrefix = (userId: string, uniqueId: string): string => `${userUploadsPrefix(userId)}/${uniqueId}`;
export const uploadChunkKey = (userId: string, uniqueId: string, chunkNumber: number, nonce: string): string =>
  `${uploadPrefix(userId, uniqueId)}/${chunkNumber}-${nonce}.part`;

/** Where a live's files live in the storage: its thumbnail and its last session's (deleted with the live, or its account). */
export const livePrefix = (liveId: string): string => `lives/${liveId}`;
/** Where a session's files live in the storage. */
export const liveSessionPrefix = (liveId: string, sessionId: string): string => `${livePrefix(liveId)}/${sessionId}`;
