import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ffmpeg = process.env.FFMPEG_PATH ?? 'ffmpeg';

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

/** A small real mp4 (H.264 + AAC, 320x180) and a png poster, generated with ffmpeg at test time. */
export async function makeClip({ seconds = 4, pattern = 'testsrc', frequency = 440 }: ClipOptions = {}): Promise<Clip> {
  const dir = await mkdtemp(path.join(tmpdir(), 'glimpse-e2e-clip-'));
  const video = path.join(dir, 'clip.mp4');
  const thumbnail = path.join(dir, 'thumbnail.png');
  const source = `${pattern}=size=320x180:rate=25`;
  await run(ffmpeg, [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `${source}:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=${frequency}:duration=${seconds}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k'],
    ...['-shortest', '-movflags', '+faststart', video],
  ]);
  await run(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source, '-frames:v', '1', thumbnail]);
  return { video, thumbnail };
}
