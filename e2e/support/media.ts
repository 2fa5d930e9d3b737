import { copyFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clipJob, pictureJob } from '@glimpse/media';
import { BundledEngine } from '../../apps/server/src/media/engine.ts';

/** The engine the app uses (the one `npm install` brings): test media is made with it, nothing is checked in. */
export const media = new BundledEngine();

/** lavfi test sources: a different picture per video keeps screenshots readable. */
export type Pattern = 'testsrc' | 'testsrc2' | 'smptebars' | 'rgbtestsrc';

export interface Clip {
  video: string;
  thumbnail: string;
}

export interface ClipOptions {
  seconds?: number;
  pattern?: Pattern;
  /** Tone frequency, so clips differ in sound too. */
  frequency?: number;
}

const clips = new Map<string, Promise<Clip>>();

/**
 * A small real mp4 (H.264 + AAC, 320x180) and a png poster, generated at test time once per shape
 * in this worker (the specs upload the same few shapes many times), and copied into a folder of
 * the caller's own: some specs pad or rename the files.
 */
export async function makeClip({ seconds = 4, pattern = 'testsrc', frequency = 440 }: ClipOptions = {}): Promise<Clip> {
  const key = `${seconds}:${pattern}:${frequency}`;
  let made = clips.get(key);
  if (!made) {
    made = generateClip(seconds, pattern, frequency);
    clips.set(key, made);
    made.catch(() => clips.delete(key));
  }
  const original = await made;
  const dir = await mkdtemp(path.join(tmpdir(), 'glimpse-e2e-clip-'));
  const copy = { video: path.join(dir, 'clip.mp4'), thumbnail: path.join(dir, 'thumbnail.png') };
  await Promise.all([copyFile(original.video, copy.video), copyFile(original.thumbnail, copy.thumbnail)]);
  return copy;
}

async function generateClip(seconds: number, pattern: Pattern, frequency: number): Promise<Clip> {
  const dir = await mkdtemp(path.join(tmpdir(), 'glimpse-e2e-clip-'));
  const video = path.join(dir, 'clip.mp4');
  const thumbnail = path.join(dir, 'thumbnail.png');
  await media.run(
    clipJob({
      out: video,
      seconds,
      width: 320,
      height: 180,
      pattern,
      container: 'mp4',
      video: { codec: 'libx264', options: { preset: 'ultrafast' } },
      audio: { codec: 'aac', frequency },
    }),
  );
  await media.run(pictureJob(thumbnail, 320, 180, pattern));
  return { video, thumbnail };
}
