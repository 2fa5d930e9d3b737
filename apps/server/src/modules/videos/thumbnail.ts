import { detectImageKind } from '../../lib/image-type.ts';
import { badRequest } from '../../lib/errors.ts';
import { randomToken } from '../../lib/hash.ts';
import { videoMediaPrefix } from '../../storage/media-keys.ts';
import type { Storage } from '../../storage/storage.ts';

export const THUMBNAIL_TYPE_MESSAGE = 'Thumbnail must be a png or jpeg image';

/** Checks a thumbnail by its bytes (400 unless png/jpeg); call before changing anything. */
export async function thumbnailExtension(filePath: string): Promise<'png' | 'jpg'> {
  const kind = await detectImageKind(filePath);
  if (!kind) throw badRequest(THUMBNAIL_TYPE_MESSAGE);
  return kind === 'png' ? 'png' : 'jpg';
}

/** Stores it under a fresh name, so a replaced thumbnail never lingers in a cache. */
export async function storeThumbnail(storage: Storage, videoId: string, filePath: string, ext: 'png' | 'jpg'): Promise<string> {
  const key = `${videoMediaPrefix(videoId)}/thumb-${randomToken().slice(0, 12)}.${ext}`;
  await storage.putFile(key, filePath);
  return key;
}
