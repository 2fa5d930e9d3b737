import { expect, test } from '@playwright/test';
import { createChannelUser, uploadVideo } from './support/index.ts';

test('support: a verified channel uploads, transcodes and publishes a clip through the API', async ({ request }) => {
  const channel = await createChannelUser(request, 'Support Channel');
  const video = await uploadVideo(channel, { title: 'Support clip', seconds: 3, chunks: 3 });
  expect(video).toMatchObject({ status: 'ready', isPublished: true, title: 'Support clip' });
  expect(video.duration).toBeGreaterThan(2);
  const anonymous = await request.get(`/api/v1/videos/${video._id}`);
  expect(anonymous.status()).toBe(200);
});
