import sharp from 'sharp';
import { messages } from '@glimpse/contract';
import { badRequest } from './errors.ts';
import { detectImageKind } from './image-type.ts';

const MAX_INPUT_PIXELS = 50_000_000;

/** Where a re-encoded image must fit: cropped to fill the box (avatar, cover) or shrunk inside it. */
export interface ImageBox {
  width: number;
  height: number;
  fit: 'cover' | 'inside';
}

export interface EncodedImage {
  body: Buffer;
  ext: 'png' | 'jpg';
  contentType: 'image/png' | 'image/jpeg';
}

/**
 * An uploaded png/jpeg (checked by its bytes) decoded and encoded afresh: EXIF orientation applied,
 * every metadata block (GPS included) dropped, the size bounded by `box`. A cropped image is a photo
 * and becomes JPEG; otherwise a png stays png (transparency). Anything else, or a file that only
 * looks like an image, is a 400.
 */
export async function reencodeImage(filePath: string, box: ImageBox, typeMessage: string = messages.imageType): Promise<EncodedImage> {
  const kind = await detectImageKind(filePath);
  if (!kind) throw badRequest(typeMessage);
  const png = kind === 'png' && box.fit === 'inside';
  try {
    // A small file can still declare huge dimensions; refuse it rather than decode it.
    const resized = sharp(filePath, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize(box.width, box.height, { fit: box.fit, withoutEnlargement: box.fit === 'inside' });
    const body = await (png ? resized.png() : resized.jpeg({ quality: 85, mozjpeg: true })).toBuffer();
    return png ? { body, ext: 'png', contentType: 'image/png' } : { body, ext: 'jpg', contentType: 'image/jpeg' };
  } catch {
    throw badRequest(messages.imageUnreadable);
  }
}
