import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { MediaBinaries } from '../../media/ffmpeg.ts';

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

/** A small mp4 of ffmpeg's moving test pattern, tinted by hue, with a tone: distinct per video. */
export async function testPatternClip(bins: MediaBinaries, file: string, o: { seconds: number; hue: number; tone: number }): Promise<void> {
  await promisify(execFile)(bins.ffmpeg, [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=size=320x180:rate=25:duration=${o.seconds},hue=h=${o.hue}:s=1.6`,
    '-f', 'lavfi', '-i', `sine=frequency=${o.tone}:sample_rate=44100:duration=${o.seconds}`,
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-b:v', '250k',
    '-c:a', 'aac', '-b:a', '48k', '-movflags', '+faststart', file,
  ]);
}
