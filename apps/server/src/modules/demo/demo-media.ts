import sharp from 'sharp';
import { clipJob } from '@glimpse/media';
import type { MediaEngine } from '../../media/engine.ts';

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

/** A small mp4 of the moving test pattern, tinted by hue, with a tone: distinct per video. */
export async function testPatternClip(media: MediaEngine, file: string, o: { seconds: number; hue: number; tone: number }): Promise<void> {
  await media.run(
    clipJob({
      out: file,
      seconds: o.seconds,
      width: 320,
      height: 180,
      videoFilter: `hue=h=${o.hue}:s=1.6`,
      container: 'mp4',
      video: { codec: 'libx264', bitrate: 250_000, options: { preset: 'ultrafast' } },
      audio: { codec: 'aac', bitrate: 48_000, frequency: o.tone },
    }),
  );
}
