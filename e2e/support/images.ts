import { appendFile, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { API, expectOk, type ApiUser } from './api.ts';
import { pictureJob } from '@glimpse/media';
import { media, type Pattern } from './media.ts';


/** A png still of a lavfi test pattern, e.g. an avatar (square) or a cover (5:1). */
export async function makeImage(width: number, height: number, pattern: Pattern = 'testsrc2'): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'glimpse-e2e-img-')), `${pattern}-${width}x${height}.png`);
  await media.run(pictureJob(file, width, height, pattern));
  return file;
}

/**
 * Grows an mp4 to at least `bytes` with a trailing top-level `free` box (players and
 * ffprobe skip it), so a short clip still crosses several 3 MB upload chunks.
 */
export async function padMp4(file: string, bytes: number): Promise<void> {
  const current = (await readFile(file)).length;
  if (current >= bytes) return;
  const box = Buffer.alloc(Math.max(8, bytes - current));
  box.writeUInt32BE(box.length, 0);
  box.write('free', 4, 'ascii');
  await appendFile(file, box);
}

/** Sets a user's avatar and cover through the API (multipart field `image`). */
export async function setProfileImages(owner: ApiUser, images: { avatar?: string; cover?: string }): Promise<void> {
  for (const [kind, file] of [['avatar', images.avatar], ['cover-image', images.cover]] as const) {
    if (!file) continue;
    const res = await owner.request.patch(`${API}/users/${kind}`, {
      headers: owner.headers,
      multipart: { image: { name: path.basename(file), mimeType: 'image/png', buffer: await readFile(file) } },
    });
    await expectOk(res);
  }
}
