import sharp from 'sharp';
import { badRequest } from '../lib/errors.ts';
import { detectImageKind } from '../lib/image-type.ts';
import { newId } from '../lib/ids.ts';
import type { Storage } from './storage.ts';

export const IMAGE_TYPE_MESSAGE = 'Only png and jpeg images are allowed';

/**
 * Checks an uploaded image by its bytes (png or jpeg), shrinks it to fit `maxSide`, strips metadata
 * and stores it under `{folder}/{newId}.{ext}`. A fresh key per upload keeps immutable caching safe.
 * Answers the storage key.
 */
export async function saveImage(storage: Storage, filePath: string, folder: string, maxSide = 1280): Promise<string> {
  const kind = await detectImageKind(filePath);
  if (!kind) throw badRequest(IMAGE_TYPE_MESSAGE);
  let body: Buffer;
  try {
    const pipeline = sharp(filePath).rotate().resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true });
    body = await (kind === 'png' ? pipeline.png() : pipeline.jpeg({ quality: 85, mozjpeg: true })).toBuffer();
  } catch {
    throw badRequest('The image file is damaged or unreadable');
  }
  const key = `${folder}/${newId()}.${kind === 'png' ? 'png' : 'jpg'}`;
  await storage.putBuffer(key, body, kind === 'png' ? 'image/png' : 'image/jpeg');
  return key;
}
