import sharp from 'sharp';
import { messages } from '@glimpse/contract';
import { badRequest } from './errors.ts';
import { detectImageKind } from './image-type.ts';

const MAX_INPUT_PIXELS = 50_000_000;

/**
 * An uploaded png/jpeg (checked by its bytes) cropped to fill width x height, as JPEG.
 * Anything else, or a file that only looks like an image, is a 400.
 */
export async function coverJpeg(filePath: string, width: number, height: number): Promise<Buffer> {
  if (!(await detectImageKind(filePath))) throw badRequest(messages.imageType);
  try {
    // A small file can still declare huge dimensions; refuse it rather than decode it.
    return await sharp(filePath, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate() // honour EXIF orientation before cropping
      .resize(width, height, { fit: 'cover' })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer();
  } catch {
    throw badRequest(messages.imageUnreadable);
  }
}
