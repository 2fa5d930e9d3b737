import { readFile, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { clipJob, pictureJob } from '@glimpse/media';
import type { MediaEngine } from '../media/engine.ts';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .join('')
    .slice(0, 2);

/** A round initials avatar (the spec's fallback look), rendered locally as png. */
export function initialsAvatar(fullName: string, hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">
    <rect width="256" height="256" fill="hsl(${hue},65%,45%)"/>
    <text x="50%" y="50%" dy=".35em" text-anchor="middle" font-family="sans-serif" font-weight="bold" font-size="110" fill="#fff">${initials(fullName)}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A 5:1 gradient cover in the channel's colour. */
export function gradientCover(hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1500" height="300">
    <defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="hsl(${hue},70%,35%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360},70%,55%)"/></linearGradient></defs>
    <rect width="1500" height="300" fill="url(#g)"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Breaks a title into lines of about `width` characters (drawtext does not wrap). */
export function wrapTitle(title: string, width = 22): string {
  const lines: string[] = [];
  for (const word of title.split(/\s+/)) {
    const last = lines.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.join('\n');
}

export interface DemoClip {
  seconds: number;
  /** A lavfi picture source with its options: mandelbrot, life, cellauto, gradients, smptehdbars, testsrc2, ... */
  source: string;
  /** Extra filters on the picture (a hue turn, a slow zoom). */
  filter?: string;
  tone: number;
  title: string;
}

/**
 * A 640x360 mp4 of a generated picture with its title drawn in (drawtext reads it from a file, so
 * quotes, colons and percent signs in titles need no escaping). Returns false when the engine
 * could not draw text (no drawtext filter or no font): the clip is then made without the title.
 */
export async function titledClip(media: MediaEngine, file: string, clip: DemoClip): Promise<boolean> {
  const textFile = `${file}.title.txt`;
  await writeFile(textFile, wrapTitle(clip.title));
  const title = [
    `drawtext=textfile='${textFile.replace(/'/g, '')}':expansion=none:fontcolor=white:fontsize=h/12:line_spacing=8`,
    'x=w/16:y=h-text_h-h/10:box=1:boxcolor=black@0.55:boxborderw=14',
  ].join(':');
  const job = (videoFilter: string | undefined) =>
    clipJob({
      out: file,
      seconds: clip.seconds,
      width: 640,
      height: 360,
      pattern: clip.source,
      ...(videoFilter ? { videoFilter } : {}),
      container: 'mp4',
      video: { codec: 'libx264', bitrate: 600_000, options: { preset: 'ultrafast' } },
      audio: { codec: 'aac', bitrate: 48_000, frequency: clip.tone },
    });
  const filters = (...parts: (string | undefined)[]) => parts.filter(Boolean).join(',') || undefined;
  try {
    await media.run(job(filters(clip.filter, title)));
    return true;
  } catch {
    await media.run(job(filters(clip.filter)));
    return false;
  }
}

/** A png still of a generated picture (a tweet's image). */
export async function generatedPicture(media: MediaEngine, file: string, source: string): Promise<Buffer> {
  await media.run(pictureJob(file, 960, 540, source));
  return readFile(file);
}
