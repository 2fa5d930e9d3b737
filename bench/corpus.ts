/**
 * The transcode corpus, made at bench time with the bundled engine (no media is committed):
 * - synthetic: lavfi testsrc2, the moving test pattern;
 * - footage: photographs from Debian's gnome-backgrounds package, panned and zoomed as a hand-held
 *   camera would (slow zoom, a sway, a second shot after a cut), with temporal grain;
 * - screen: a screen recording's look, flat colours, boxes and scrolling text in a monospace font.
 * Each is 1920x1080 at 25 fps with a 192 kbit/s AAC tone, encoded as a camera would (x264, high
 * rate, capped), so both ladders start from the same lightly compressed source.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { MediaJob } from '@glimpse/media';
import { media } from './lib.ts';

export interface CorpusClip {
  name: string;
  file: string;
  about: string;
}

/** Where gnome-backgrounds puts its pictures (Debian, Ubuntu). */
const BACKGROUNDS = '/usr/share/backgrounds/gnome';
const PHOTOS = ['wood-d.webp', 'pixels-l.webp'];
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf';
const W = 1920;
const H = 1080;
const FPS = 25;

// A camera's encode: fast, high quality, capped at 40 Mbit/s (grain at CRF 18 alone would take 130).
const camera = { codec: 'libx264', maxrate: 40_000_000, bufsize: 80_000_000, options: { preset: 'ultrafast', crf: '18' } };
const tone = (seconds: number) => ({ url: `sine=frequency=440:sample_rate=48000:duration=${seconds}`, format: 'lavfi' });

function encode(out: string, inputs: MediaJob['inputs'], picture: string, seconds: number): MediaJob {
  const audio = inputs.length;
  return {
    inputs: [...inputs, tone(seconds)],
    graph: `${picture},format=yuv420p[v];[${audio}:a]aformat=sample_fmts=fltp:channel_layouts=stereo[a]`,
    outputs: [
      {
        url: out,
        format: 'mp4',
        streams: [
          { kind: 'video', label: 'v', fps: String(FPS), ...camera },
          { kind: 'audio', label: 'a', codec: 'aac', bitrate: 192_000 },
        ],
      },
    ],
  };
}

/**
 * One shot of `frames` frames from a still picture, looped: zoompan zooms in slowly while the
 * frame drifts sideways and sways (a hand-held camera); the picture is upscaled first so the pan
 * moves by sub-picture steps. (A picture's one frame and its end reach zoompan together; looped,
 * it gets a frame per output frame.)
 */
const shot = (input: number, frames: number, drift: number, label: string) =>
  `[${input}:v]scale=${W * 2}:-2,loop=loop=-1:size=1,zoompan=z='1.05+0.0008*in':x='iw/2-(iw/zoom/2)+${drift}*(in-${frames / 2})+6*sin(in/7)':y='ih/2-(ih/zoom/2)+4*sin(in/5)':d=1:s=${W}x${H}:fps=${FPS},trim=end_frame=${frames},setpts=N/${FPS}/TB[${label}]`;

/** The photographs' clip: two shots and a cut, camera grain (temporal, on every plane). */
function footageJob(out: string, seconds: number): MediaJob | string {
  const photos = PHOTOS.map((p) => path.join(BACKGROUNDS, p));
  if (!photos.every(existsSync)) return `no photographs in ${BACKGROUNDS}: install them with \`apt-get install gnome-backgrounds\` (Debian/Ubuntu) to add the footage clip`;
  const total = seconds * FPS;
  const first = Math.round(total * 0.55);
  const graph = [shot(0, first, 1.5, 'a'), shot(1, total - first, -2, 'b'), `[a][b]concat=n=2:v=1:a=0,noise=alls=12:allf=t+u`].join(';');
  return encode(out, photos.map((url) => ({ url })), graph, seconds);
}

/** A screen recording: a title bar, a side panel, code scrolling in the editor, a moving pointer. */
function screenJob(out: string, seconds: number): MediaJob | string {
  if (!existsSync(FONT)) return `no font at ${FONT}: install fonts-dejavu-core to add the screen clip`;
  const code = [
    'export async function handler(request, reply) {',
    '  const video = await videos.find(request.params.id);',
    '  if (!video) return reply.code(404).send({ error: "not found" });',
    '  const owner = await accounts.find(video.ownerId);',
    '  return { id: video.id, title: video.title, owner: owner.name };',
    '}',
    '',
  ];
  // An editor's page of code scrolling up at 30 px/s (wrapping round every 1,680 px).
  const lines = Array.from({ length: 42 }, (_, i) => code[i % code.length]!).map((line, i) => ({ line, i })).filter((l) => l.line);
  const text = ({ line, i }: { line: string; i: number }) =>
    `drawtext=fontfile=${FONT}:fontsize=26:fontcolor=0x1f2328:x=420:y='mod(${80 + i * 40}-t*30\\,1680)':text='${line.replace(/[':,]/g, (c) => `\\${c}`)}'`;
  const picture = [
    `[0:v]drawbox=x=0:y=0:w=${W}:h=56:color=0x24292f:t=fill`,
    `drawbox=x=0:y=56:w=360:h=${H - 56}:color=0xeaeef2:t=fill`,
    ...Array.from({ length: 12 }, (_, i) => `drawbox=x=24:y=${90 + i * 60}:w=${200 + ((i * 37) % 110)}:h=22:color=0x8c959f:t=fill`),
    ...lines.map(text),
    `drawbox=x='400+mod(t*90\\,1300)':y='300+200*sin(t/2)':w=14:h=20:color=0x000000:t=fill`,
  ].join(',');
  return encode(out, [{ url: `color=c=0xffffff:size=${W}x${H}:rate=${FPS}:duration=${seconds}`, format: 'lavfi' }], picture, seconds);
}

const syntheticJob = (out: string, seconds: number): MediaJob =>
  encode(out, [{ url: `testsrc2=size=${W}x${H}:rate=${FPS}:duration=${seconds}`, format: 'lavfi' }], '[0:v]null', seconds);

/** Makes the corpus under `dir`; a clip whose material is missing is skipped with the reason (printed). */
export async function makeCorpus(dir: string, seconds: number): Promise<{ clips: CorpusClip[]; skipped: string[] }> {
  const makers: { name: string; about: string; job: (out: string, s: number) => MediaJob | string }[] = [
    { name: 'synthetic', about: 'lavfi testsrc2, a moving test pattern', job: syntheticJob },
    { name: 'footage', about: `two photographs from gnome-backgrounds (${PHOTOS.join(', ')}) panned and zoomed with a sway, a cut at 55 %, temporal grain`, job: footageJob },
    { name: 'screen', about: 'a screen recording: flat panels, scrolling code (DejaVu Sans Mono), a moving pointer', job: screenJob },
  ];
  const clips: CorpusClip[] = [];
  const skipped: string[] = [];
  for (const m of makers) {
    const file = path.join(dir, `${m.name}.mp4`);
    const job = m.job(file, seconds);
    if (typeof job === 'string') {
      console.error(`corpus: ${m.name} skipped: ${job}`);
      skipped.push(`${m.name}: ${job}`);
      continue;
    }
    await media.engine.run(job);
    clips.push({ name: m.name, file, about: m.about });
  }
  return { clips, skipped };
}
