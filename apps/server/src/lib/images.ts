import sharp from 'sharp';
import { messages } from '@glimpse/contract';
import { badRequest } from './errors.ts';
import { detectImageKind } from './image-type.ts';

/**
 * An uploaded png/jpeg (checked by its bytes) cropped to fill width x height, as JPEG.
 * Anything else, or a file that only looks like an image, is a 400.
 */
export async function coverJpeg(filePath: string, width: number, height: number): Promise<Buffer> {
  if (!(await detectImageKind(filePath))) throw badRequest(messages.imageType);
  try {
    return await sharp(filePath)
      .rotate() // honour EXIF orientation before cropping
      .resize(width, height, { fit: 'cover' })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer();
  } catch {
    throw badRequest(messages.imageUnreadable);
  }
}
