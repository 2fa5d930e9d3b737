import { readFile } from 'node:fs/promises';
import { expect } from '@playwright/test';
import type { Video, VideoResult } from '@glimpse/contract';
import { API, expectOk, uniqueName, type ApiUser } from './api.ts';
import { makeClip, type ClipOptions } from './media.ts';

export interface UploadOptions extends ClipOptions {
  title: string;
  description?: string;
  /** Split the file into this many chunks (default 2) to exercise the chunked protocol. */
  chunks?: number;
  publish?: boolean;
}

/** Sends a file through the real chunked upload API; the last chunk carries title, description and thumbnail. */
async function sendChunks(owner: ApiUser, file: Buffer, thumbnail: Buffer, opts: UploadOptions): Promise<Video> {
  const totalChunks = Math.max(1, Math.min(opts.chunks ?? 2, file.length));
  const size = Math.ceil(file.length / totalChunks);
  const uniqueId = uniqueName('up');
  let created: Video | undefined;
  for (let chunkNumber = 0; chunkNumber < totalChunks; chunkNumber++) {
    const isLast = chunkNumber === totalChunks - 1;
    const multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> = {
      video: { name: 'clip.mp4', mimeType: 'video/mp4', buffer: file.subarray(chunkNumber * size, (chunkNumber + 1) * size) },
      isLastChunk: String(isLast),
    };
    if (isLast) {
      multipart.title = opts.title;
      multipart.description = opts.description ?? `${opts.title}: an end-to-end test clip.`;
      multipart.image = { name: 'thumbnail.png', mimeType: 'image/png', buffer: thumbnail };
    }
    const res = await owner.request.post(`${API}/videos`, {
      headers: owner.headers,
      params: { uniqueId, chunkNumber, totalChunks },
      multipart,
    });
    const body = await expectOk<VideoResult>(res, isLast ? 201 : 200);
    if (isLast) created = body.data.video;
  }
  return created!;
}

/** Polls the video until the transcode job marks it ready (fails fast if it failed). */
export async function waitUntilReady(owner: ApiUser, videoId: string): Promise<Video> {
  let video: Video | undefined;
  await expect
    .poll(
      async () => {
        video = (await owner.get<VideoResult>(`/videos/${videoId}`)).video;
        return video.status;
      },
      { message: `video ${videoId} transcoded`, timeout: 90_000, intervals: [250, 500, 1000] },
    )
    .toMatch(/^(ready|failed)$/);
  expect(video!.status, `transcode of ${videoId}`).toBe('ready');
  return video!;
}

export async function publish(owner: ApiUser, videoId: string, isPublished = true): Promise<Video> {
  return (await owner.send<VideoResult>('patch', `/videos/${videoId}/publish`, { isPublished })).video;
}

/** Generates a clip, uploads it in chunks, waits for transcoding and publishes it (unless publish: false). */
export async function uploadVideo(owner: ApiUser, opts: UploadOptions): Promise<Video> {
  const clip = await makeClip(opts);
  const [file, thumbnail] = await Promise.all([readFile(clip.video), readFile(clip.thumbnail)]);
  const created = await sendChunks(owner, file, thumbnail, opts);
  const ready = await waitUntilReady(owner, created._id);
  return opts.publish === false ? ready : publish(owner, ready._id);
}
