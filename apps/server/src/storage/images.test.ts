import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tweets, users, videos } from '../db/schema.ts';
import type { UserRow } from '../modules/users/users.repository.ts';
import { bearer, createTestApp, createTweet, createUser, createVideo, multipartInject, TINY_PNG, type TestContext } from '../../test/harness.ts';
import { keyOf } from '../../test/media.ts';

let t: TestContext;
let owner: UserRow;
let auth: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t.ctx);
  auth = await bearer(t.ctx, owner);
});
afterAll(() => t.close());

/** A photo as a phone sends it: large, with EXIF (camera and GPS position). */
const phonePhoto = (width = 3000, height = 2000, colour = '#336699') =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .withExif({ IFD0: { Make: 'Phone', Copyright: 'me' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 3230/100' } })
    .toBuffer();

const patchImage = async (url: string, image: Buffer, field = 'image') => {
  const form = new FormData();
  form.append(field, new Blob([image]), 'photo.jpg');
  return multipartInject(t.app, { method: 'PATCH', url: `/api/v1${url}`, headers: auth, form });
};
const mediaPath = (key: string) => path.join(t.dataDir, 'media', key);
const filesIn = async (folder: string) => (await readdir(mediaPath(folder)).catch(() => [] as string[])).map((f) => `${folder}/${f}`);

describe('video thumbnails', () => {
  it('are re-encoded like avatars: no EXIF (GPS) left, shrunk to at most 1280x720', async () => {
    const photo = await phonePhoto();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const video = await createVideo(t.ctx, owner);
    const res = await patchImage(`/videos/${video.id}`, photo);
    expect(res.statusCode).toBe(200);
    const key = keyOf(res.json().data.video.thumbnail.url);
    expect(key).toMatch(new RegExp(`^videos/${video.id}/thumb-[\\w-]+\\.jpg$`));
    const stored = await sharp(mediaPath(key)).metadata();
    expect(stored.exif).toBeUndefined();
    expect([stored.format, stored.width, stored.height]).toEqual(['jpeg', 1080, 720]);
  });

  it('refuse an image whose declared size would take gigabytes to decode, and store nothing', async () => {
    const video = await createVideo(t.ctx, owner);
    // A valid 1x1 png whose header claims 30000 x 30000 pixels.
    const bomb = Buffer.from(TINY_PNG);
    bomb.writeUInt32BE(30_000, 16);
    bomb.writeUInt32BE(30_000, 20);
    bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)), 29);
    const res = await patchImage(`/videos/${video.id}`, bomb);
    expect(res.statusCode).toBe(400);
    expect(await filesIn(`videos/${video.id}`)).toEqual([]);
  });
});

describe('replacing an image concurrently', () => {
  const N = 6;
  const colours = Array.from({ length: N }, (_, i) => `#${(0x102030 + i * 0x111111).toString(16)}`);

  /** N replacements at once; afterwards exactly the referenced file is left in the folder. */
  async function race(url: string, folder: string, referenced: () => Promise<(string | null)[]>, filter = (_f: string) => true) {
    const images = await Promise.all(colours.map((c) => phonePhoto(400, 300, c)));
    const answers = await Promise.all(images.map((image) => patchImage(url, image)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(N).fill(200));
    const keys = (await referenced()).filter((k): k is string => k !== null);
    expect((await filesIn(folder)).filter(filter).sort()).toEqual(keys.sort());
  }

  it('leaves only the referenced thumbnail', async () => {
    const video = await createVideo(t.ctx, owner);
    await race(`/videos/${video.id}`, `videos/${video.id}`, async () => {
      const [row] = await t.ctx.db.select({ key: videos.thumbnailKey }).from(videos).where(eq(videos.id, video.id));
      return [row!.key];
    });
  });

  it('leaves only the referenced tweet image', async () => {
    const tweet = await createTweet(t.ctx, owner);
    await race(`/tweets/${tweet.id}`, `tweets/${tweet.id}`, async () => {
      const [row] = await t.ctx.db.select({ key: tweets.imageKey }).from(tweets).where(eq(tweets.id, tweet.id));
      return [row!.key];
    });
  });

  it.each(['avatar', 'cover-image'])('leaves only the referenced %s', async (kind) => {
    const prefix = kind === 'avatar' ? 'avatar-' : 'cover-';
    await race(
      `/users/${kind}`,
      `users/${owner.id}`,
      async () => {
        const [row] = await t.ctx.db.select({ avatar: users.avatarKey, cover: users.coverKey }).from(users).where(eq(users.id, owner.id));
        return [kind === 'avatar' ? row!.avatar : row!.cover];
      },
      (file) => path.basename(file).startsWith(prefix),
    );
  });
});
