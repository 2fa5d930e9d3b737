import { reencodeImage, type EncodedImage } from '../../lib/images.ts';
import type { Storage } from '../../storage/storage.ts';
import { storeImage } from '../../storage/images.ts';
import { videoMediaPrefix } from '../../storage/media-keys.ts';

export const THUMBNAIL_TYPE_MESSAGE = 'Thumbnail must be a png or jpeg image';
/** Large enough for a 720p player; a bigger upload is shrunk, never served as sent. */
const THUMBNAIL_BOX = { width: 1280, height: 720, fit: 'inside' } as const;

/** Checks and re-encodes an uploaded thumbnail like every image (400 unless a readable png/jpeg); call before changing anything. */
export function prepareThumbnail(filePath: string): Promise<EncodedImage> {
  return reencodeImage(filePath, THUMBNAIL_BOX, THUMBNAIL_TYPE_MESSAGE);
}

/** Stores it under a fresh name, so a replaced thumbnail never lingers in a cache. */
export function storeThumbnail(storage: Storage, videoId: string, image: EncodedImage): Promise<string> {
  return storeImage(storage, `${videoMediaPrefix(videoId)}/thumb-`, image);
}
