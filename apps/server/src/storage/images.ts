import type { Executor } from '../db/client.ts';
import { newId } from '../lib/ids.ts';
import { reencodeImage, type EncodedImage, type ImageBox } from '../lib/images.ts';
import type { Storage } from './storage.ts';

/** Stores a re-encoded image under `{keyPrefix}{newId}.{ext}`: a fresh key per upload keeps immutable caching safe. */
export async function storeImage(storage: Storage, keyPrefix: string, image: EncodedImage): Promise<string> {
  const key = `${keyPrefix}${newId()}.${image.ext}`;
  await storage.putBuffer(key, image.body, image.contentType);
  return key;
}

/** Re-encodes an uploaded image (lib/images.ts) and stores it; answers the storage key. */
export async function saveImage(storage: Storage, filePath: string, keyPrefix: string, box: ImageBox): Promise<string> {
  return storeImage(storage, keyPrefix, await reencodeImage(filePath, box));
}

/**
 * Makes a row point at a newly stored file, then deletes the file it pointed at before. `swap`
 * runs in a transaction and must lock the row first (answering the key it replaced, or undefined
 * when the row is gone): concurrent replacements then queue up and each deletes exactly its
 * predecessor. When the row is gone or the swap fails, the new file goes instead: no file is left
 * that nothing references.
 */
export async function replaceFile<T>(
  storage: Storage,
  db: Executor,
  newKey: string,
  swap: (tx: Executor) => Promise<{ oldKey: string | null; result: T } | undefined>,
): Promise<T | undefined> {
  let swapped: Awaited<ReturnType<typeof swap>>;
  try {
    swapped = await db.transaction(swap);
  } catch (err) {
    await storage.delete(newKey);
    throw err;
  }
  if (!swapped) {
    await storage.delete(newKey);
    return undefined;
  }
  if (swapped.oldKey && swapped.oldKey !== newKey) await storage.delete(swapped.oldKey);
  return swapped.result;
}
