import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clipJob, NOT_A_VIDEO, parseProbe, pictureJob, type ClipSpec } from '@glimpse/media';
import { queryRows } from '../../db/client.ts';
import { createWorker } from '../../worker.ts';
import type { LocalStorage } from '../../storage/local-storage.ts';
import { bearer, createTestApp, createUser, memoryLog, testMedia, uploadVideo, type TestContext } from '../../../test/harness.ts';

/**
 * Everyday uploads, made here with the engine `npm install` brings (nothing checked in), uploaded
 * through the API as the web app does, transcoded by the real worker and fetched as a player would.
 */
let t: TestContext;
let dir: string;
let auth: { authorization: string };
beforeAll(async () => {
  t = await createTestApp({ LADDER_PRESET: 'ultrafast', MAX_VIDEO_MINUTES: '60' });
  dir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-corpus-'));
  auth = await bearer(t.ctx, await createUser(t.ctx));
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const upload = (file: Buffer, title: string) => uploadVideo(t.app, auth, file, title);

async function make(name: string, spec: Omit<ClipSpec, 'out'>): Promise<Buffer> {
  const out = path.join(dir, name);
  await testMedia.engine.run(clipJob({ ...spec, out }));
  return readFile(out);
}

const probe = async (file: string) => parseProbe(JSON.stringify(await testMedia.engine.probe(file)));

/** A rendition's init segment and first media segment, joined and probed. */
async function probeRendition(videoId: string, name: string) {
  const folder = (t.ctx.storage as LocalStorage).pathOf(`videos/${videoId}/hls/${name}`);
  const files = (await readdir(folder)).sort();
  const joined = path.join(dir, `${videoId}-${name}.mp4`);
  await writeFile(joined, Buffer.concat(await Promise.all([files.find((f) => f.startsWith('init'))!, 'seg_00000.m4s'].map((f) => readFile(path.join(folder, f))))));
  return probe(joined);
}

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: auth });

/** Master playlist -> each variant -> its init and first segment, resolved as a player resolves them. */
async function play(masterUrl: string) {
  const base = new URL(masterUrl, 'http://glimpse.test');
  const master = await get(base.pathname + base.search);
  expect(master.statusCode).toBe(200);
  const text = master.body;
  const variants = text.split('\n').filter((l) => l && !l.startsWith('#'));
  const audio = /URI="([^"]+)"/.exec(text)?.[1];
  for (const rel of [...variants, ...(audio ? [audio] : [])]) {
    const playlistUrl = new URL(rel, base);
    const playlist = await get(playlistUrl.pathname + playlistUrl.search);
    expect(playlist.statusCode, rel).toBe(200);
    const init = /#EXT-X-MAP:URI="([^"]+)"/.exec(playlist.body)![1]!;
    const first = playlist.body.split('\n').find((l) => l.endsWith('.m4s'))!;
    for (const part of [init, first]) {
      const u = new URL(part, playlistUrl);
      const res = await get(u.pathname + u.search);
      expect(res.statusCode, part).toBe(200);
      expect(res.rawPayload.length).toBeGreaterThan(100);
    }
  }
  return {
    sizes: [...text.matchAll(/RESOLUTION=(\d+x\d+)/g)].map((m) => m[1]),
    audio: audio !== undefined,
    channels: /CHANNELS="(\d+)"/.exec(text)?.[1],
  };
}

const x264 = { codec: 'libx264', options: { preset: 'ultrafast' } };
const SHAPES: { name: string; spec: Omit<ClipSpec, 'out'>; sizes: string[]; audio: boolean }[] = [
  { name: '1080p25 H.264 + AAC.mp4', spec: { seconds: 2, width: 1920, height: 1080, container: 'mp4', video: x264 }, sizes: ['426x240', '640x360', '854x480', '1280x720', '1920x1080'], audio: true },
  {
    name: 'portrait phone.mov',
    spec: { seconds: 2, width: 640, height: 360, fps: 30, container: 'mov', video: x264, displayRotation: -90 },
    sizes: ['240x426', '360x640'],
    audio: true,
  },
  { name: 'odd size no audio.mp4', spec: { seconds: 2, width: 1279, height: 719, container: 'mp4', video: x264, audio: false }, sizes: ['428x240', '640x360', '854x480', '1278x718'], audio: false },
  { name: '720p60.mp4', spec: { seconds: 2, width: 1280, height: 720, fps: 60, container: 'mp4', video: x264 }, sizes: ['426x240', '640x360', '854x480', '1280x720'], audio: true },
  {
    name: 'HEVC 10-bit.mp4',
    spec: { seconds: 2, width: 640, height: 360, container: 'mp4', video: { codec: 'libx265', pixFmt: 'yuv420p10le', options: { preset: 'ultrafast', 'x265-params': 'log-level=error' } } },
    sizes: ['426x240', '640x360'],
    audio: true,
  },
  {
    name: 'HDR10 HEVC.mkv',
    spec: { seconds: 2, width: 640, height: 360, container: 'matroska', hdr: true, video: { codec: 'libx265', pixFmt: 'yuv420p10le', options: { preset: 'ultrafast', 'x265-params': 'log-level=error' } } },
    sizes: ['426x240', '640x360'],
    audio: true,
  },
  { name: 'VP9 + Opus.webm', spec: { seconds: 2, width: 640, height: 360, container: 'webm', video: { codec: 'libvpx-vp9', options: { deadline: 'realtime', 'cpu-used': '8' } }, audio: { codec: 'libopus' } }, sizes: ['426x240', '640x360'], audio: true },
  { name: 'VP8 + Vorbis.webm', spec: { seconds: 2, width: 640, height: 360, container: 'webm', video: { codec: 'libvpx', options: { deadline: 'realtime', 'cpu-used': '8' } }, audio: { codec: 'libvorbis' } }, sizes: ['426x240', '640x360'], audio: true },
  {
    name: 'AV1 + AC-3 5.1.mkv',
    spec: { seconds: 2, width: 640, height: 360, container: 'matroska', video: { codec: 'libsvtav1', options: { preset: '12' } }, audio: { codec: 'ac3', channels: 6, bitrate: 192_000 } },
    sizes: ['426x240', '640x360'],
    audio: true,
  },
  { name: 'MPEG-4 + MP3 mono.avi', spec: { seconds: 2, width: 480, height: 360, container: 'avi', video: { codec: 'mpeg4' }, audio: { codec: 'libmp3lame', channels: 1 } }, sizes: ['320x240', '480x360'], audio: true },
  { name: 'phone.3gp', spec: { seconds: 2, width: 352, height: 288, container: '3gp', video: x264 }, sizes: ['294x240', '352x288'], audio: true },
  {
    name: 'variable frame rate.mp4',
    spec: { seconds: 3, width: 640, height: 360, fps: 30, videoFilter: "select='not(eq(mod(n\\,10)\\,9))'", container: 'mp4', video: x264 },
    sizes: ['426x240', '640x360'],
    audio: true,
  },
];

describe('everyday uploads become watchable', () => {
  it('transcodes every shape to a playable ladder: rungs by the short side, upright, audio kept and shared', async () => {
    const ids = new Map<string, string>();
    for (const shape of SHAPES) {
      const file = await make(shape.name, shape.spec);
      if (shape.spec.hdr) expect((await probe(path.join(dir, shape.name))).colorTransfer).toBe('smpte2084');
      if (shape.spec.displayRotation) expect((await probe(path.join(dir, shape.name))).rotation).toBe(90);
      const res = await upload(file, shape.name);
      expect(res.statusCode, `${shape.name}: ${res.body}`).toBe(201);
      ids.set(shape.name, res.json().data.video._id);
    }
    const log = memoryLog();
    // Each transcode, and the fan-out telling its owner.
    expect(await createWorker(t.ctx, log).drain()).toBe(SHAPES.length * 2);
    for (const shape of SHAPES) {
      const video = (await get(`/api/v1/videos/${ids.get(shape.name)}`)).json().data.video;
      expect(video.status, `${shape.name}: ${video.failureReason}`).toBe('ready');
      const played = await play(video.videoFile.url);
      expect(played.sizes, shape.name).toEqual(shape.sizes);
      expect(played.sizes.every((wh) => wh!.split('x').every((n) => Number(n) % 2 === 0)), shape.name).toBe(true);
      expect(played.audio, shape.name).toBe(shape.audio);
      // 5.1 and mono alike are shared as one stereo rendition.
      if (shape.audio) expect(played.channels, shape.name).toBe('2');
    }
    // 60 fps kept from 720p up, halved below.
    const sixty = ids.get('720p60.mp4')!;
    expect((await probeRendition(sixty, '720p')).fps).toBe(60);
    expect((await probeRendition(sixty, '240p')).fps).toBe(30);
  }, 600_000);

  it('refuses audio-only files, pictures, text and over-long videos with a clear message, keeping nothing', async () => {
    const audioOnly = await make('song.m4a', { seconds: 2, width: 0, height: 0, container: 'mp4', video: false });
    const picture = path.join(dir, 'photo.png');
    await testMedia.engine.run(pictureJob(picture));
    // 51 frames, the last one ten hours in: a timestamp-gap "bomb".
    const gap = await make('gap.mp4', { seconds: 3, width: 320, height: 240, container: 'mp4', video: x264, audio: false, videoFilter: "trim=end_frame=51,setpts='if(eq(N\\,50)\\,36000/TB\\,PTS)'" });
    const cases: [string, Buffer, string][] = [
      ['audio', audioOnly, 'This file has only sound: upload a video file'],
      ['picture', await readFile(picture), 'This file is a picture: upload a video file'],
      ['text', Buffer.from('not a video at all\n'.repeat(100)), NOT_A_VIDEO],
      ['gap', gap, 'Videos can be at most 60 minutes long'],
    ];
    for (const [title, file, message] of cases) {
      const res = await upload(file, title);
      expect(res.statusCode, title).toBe(400);
      expect(res.json().message, title).toBe(message);
    }
    const kept = await queryRows<{ n: number }>(t.ctx.db, sql`SELECT count(*)::int AS n FROM videos WHERE title IN ('audio', 'picture', 'text', 'gap')`);
    expect(kept[0]!.n).toBe(0);
  }, 120_000);
});
