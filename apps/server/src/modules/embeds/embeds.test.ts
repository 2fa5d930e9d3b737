import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, createVideo, type TestContext } from '../../../test/harness.ts';
import { call, expectError, MISSING_ID } from '../../../test/http.ts';
import { videos } from '../../db/schema.ts';
import type { UserRow } from '../users/users.repository.ts';
import { frameSize } from './embeds.service.ts';

let t: TestContext;
let owner: UserRow;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t.ctx, { fullName: 'Owner "O" <b>', userName: 'embedowner' });
  await t.ctx.settings.update({ name: 'Tube & Co' });
});
afterAll(() => t.close());

const ORIGIN = 'http://glimpse.test';
const oembed = (url: string, extra = '', as?: UserRow) => call(t, 'GET', `/oembed?url=${encodeURIComponent(url)}${extra}`, { as });

describe('GET /oembed', () => {
  it('answers 400 for a missing or malformed url, 501 for xml, 404 for other sites and pages', async () => {
    const video = await createVideo(t.ctx, owner);
    expectError(await call(t, 'GET', '/oembed'), 400);
    expectError(await oembed('not a url'), 400, 'url must be an absolute http(s) URL');
    expectError(await oembed('javascript:alert(1)'), 400, 'url must be an absolute http(s) URL');
    expectError(await oembed(`${ORIGIN}/video/${video.id}`, '&format=yaml'), 400);
    expectError(await oembed(`${ORIGIN}/video/${video.id}`, '&maxwidth=0'), 400);
    expectError(await oembed(`${ORIGIN}/video/${video.id}`, '&format=xml'), 501, 'Only format=json is supported');
    expectError(await oembed(`https://elsewhere.example/video/${video.id}`), 404, 'No embeddable video at this URL');
    expectError(await oembed(`${ORIGIN}/channel/@embedowner`), 404, 'No embeddable video at this URL');
    expectError(await oembed(`${ORIGIN}/video/not-an-id`), 404, 'No embeddable video at this URL');
    expectError(await oembed(`${ORIGIN}/video/${MISSING_ID}`), 404, 'No embeddable video at this URL');
  });

  it('answers 404 for videos the public may not see, even to their owner', async () => {
    const hidden = await Promise.all([
      createVideo(t.ctx, owner, { privacy: 'private' }),
      createVideo(t.ctx, owner, { status: 'processing' }),
      createVideo(t.ctx, owner, { takenDownAt: new Date(), takedownReason: 'spam' }),
    ]);
    for (const v of hidden) {
      expectError(await oembed(`${ORIGIN}/video/${v.id}`), 404, 'No embeddable video at this URL');
      expectError(await oembed(`${ORIGIN}/video/${v.id}`, '', owner), 404, 'No embeddable video at this URL');
    }
  });

  it('answers the oEmbed 1.0 video object, escaping the title in its html', async () => {
    const video = await createVideo(t.ctx, owner, { title: '"><script>alert(1)</script>', width: 1920, height: 1080 });
    await t.ctx.db.update(videos).set({ thumbnailKey: `videos/${video.id}/thumb-a.jpg` }).where(eq(videos.id, video.id));
    const res = await oembed(`${ORIGIN}/video/${video.id}?t=30`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      version: '1.0',
      type: 'video',
      provider_name: 'Tube & Co',
      provider_url: `${ORIGIN}/`,
      title: '"><script>alert(1)</script>',
      author_name: 'Owner "O" <b>',
      author_url: `${ORIGIN}/channel/@embedowner/videos`,
      html:
        `<iframe src="${ORIGIN}/embed/${video.id}" width="560" height="315" title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" ` +
        'frameborder="0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen></iframe>',
      width: 560,
      height: 315,
      thumbnail_url: expect.stringMatching(new RegExp(`^${ORIGIN}/media/videos/${video.id}/pub-[0-9a-f]{32}/thumb-a\\.jpg$`)),
      thumbnail_width: 1280,
      thumbnail_height: 720,
    });
    expect(res.body.html).not.toContain('<script>');
  });

  it('embeds unlisted videos and keeps within maxwidth and maxheight', async () => {
    const video = await createVideo(t.ctx, owner, { privacy: 'unlisted' });
    const res = await oembed(`${ORIGIN}/video/${video.id}`, '&format=json&maxwidth=320&maxheight=400');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ width: 320, height: 180, title: video.title });
    expect(res.body).not.toHaveProperty('thumbnail_url');
    expect(res.body.html).toContain('width="320" height="180"');
    expect(frameSize(undefined, 90)).toEqual({ width: 160, height: 90 });
    expect(frameSize(1000, 1000)).toEqual({ width: 560, height: 315 });
  });
});
