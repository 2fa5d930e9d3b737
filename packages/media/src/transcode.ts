import type { EncodedStream, MediaJob, OutputStream } from './job.ts';
import { DEFAULT_LADDER, outputRate, rateString, rateValue, selectLadder, type LadderSettings, type Rendition } from './ladder.ts';
import { isHdr, type ProbeResult } from './probe.ts';
import { storyboardFilter, type StoryboardPlan } from './storyboard.ts';

export interface TranscodeInput {
  input: string;
  /** Folder that receives master.m3u8, {name}/index.m3u8 and segments, poster.png, storyboard.png. */
  outDir: string;
  probe: ProbeResult;
  /** The storyboard sprite; omitted when another pass makes it. */
  storyboard?: StoryboardPlan;
  /** The poster is the most representative frame of this many first seconds; omitted when the uploader gave a thumbnail. */
  posterWithinSeconds?: number;
  settings?: LadderSettings;
  /** The rungs this pass encodes (ADR 019: the lowest first, then the rest); the whole ladder when omitted. */
  rungs?: Rendition[];
  /**
   * Scales by area averaging instead of bicubic: a first pass's wall time 7 % shorter, its SSIM
   * 0.002 lower (ADR 025, sixth round). For a rung the second pass makes again.
   */
  fastScale?: boolean;
}

/** File names inside outDir, relative. */
export const TRANSCODE_OUTPUTS = {
  master: 'master.m3u8',
  audio: 'audio',
  poster: 'poster.png',
  sprite: 'storyboard.png',
} as const;

/** The folder (and HLS variant name) of a rendition. */
export const renditionName = (r: Pick<Rendition, 'rung'>): string => `${r.rung}p`;

/** Turns the picture upright (the bundled engine never auto-rotates; the system one is told not to). */
function uprightFilter(clockwise: number): string[] {
  if (clockwise === 90) return ['transpose=clock'];
  if (clockwise === 180) return ['hflip', 'vflip'];
  if (clockwise === 270) return ['transpose=cclock'];
  return [];
}

/** HDR (PQ or HLG, BT.2020) to SDR BT.709 with the Hable curve; other pictures pass untouched. */
function toneMapFilter(p: ProbeResult): string[] {
  if (!isHdr(p)) return [];
  return [
    `zscale=tin=${p.colorTransfer}:pin=bt2020:min=bt2020nc:t=linear:npl=100`,
    'format=gbrpf32le',
    'zscale=p=bt709',
    'tonemap=tonemap=hable:desat=0',
    'zscale=t=bt709:m=bt709:r=tv',
  ];
}

/**
 * The x264 parameters of every rung. A keyframe exactly every segment (`keyint` frames), in every
 * rung: segments align and players switch anywhere. Up to 16 B-frames placed by the fast heuristic
 * (PeerTube's -bf 16 -b_strategy 1): on a screen recording's 720p, 0.60 MB at SSIM 0.9970 against
 * 1.08 MB at 0.9959 with x264's 3 (ADR 025).
 */
export const rungX264Params = (keyint: number): string => `keyint=${keyint}:min-keyint=${keyint}:scenecut=0:open-gop=0:bframes=16:b-adapt=1`;

/** A rung's x264 encoder settings: its CRF under its cap, its preset, its keyframe rule. */
export function rungEncoderOptions(r: Rendition, s: LadderSettings): Pick<EncodedStream, 'fps' | 'maxrate' | 'bufsize' | 'options'> {
  return {
    fps: r.fps,
    maxrate: r.maxKbps * 1000,
    bufsize: r.maxKbps * 2000,
    options: { preset: r.preset, crf: String(r.crf), profile: 'high', 'x264-params': rungX264Params(keyintFor(r.fps, s.segmentSeconds)) },
  };
}

/**
 * Frames per second the poster is chosen among: every frame of the window, scaled to 720p on the
 * critical path of the first pass, cost about 0.9 s of a 1080p25 upload's time to playable for a
 * choice a few frames a second make as well (ADR 025, thirteenth round).
 */
const POSTER_CANDIDATES_PER_SECOND = 5;

/** The poster branch: a few frames a second of the window, scaled, the most representative kept. */
function posterFilter(windowSeconds: number, rate: number): string {
  const perSecond = Math.min(rate, POSTER_CANDIDATES_PER_SECOND);
  const candidates = Math.max(1, Math.round(windowSeconds * perSecond));
  // thumbnail skips black and fade frames; it answers at the end of its batch or of the video.
  // trim ends the branch with the window, so the rest of the video is not scaled for nothing.
  return `[sp]trim=end=${windowSeconds},${rate > perSecond ? `fps=${perSecond},` : ''}scale=-2:'min(720,ih)',thumbnail=n=${candidates},format=rgb24[poster]`;
}

const keyintFor = (fps: string, seconds: number) => {
  const [num, den = '1'] = fps.split('/');
  return Math.max(1, Math.round((Number(num) / Number(den)) * seconds));
};

/** The source turned upright, tone-mapped when HDR, at the ladder's top frame rate (`top`). */
export function sourcePrep(p: ProbeResult, s: LadderSettings): { prep: string; top: string } {
  const top = rateString(outputRate(p.fps, s.maxFps));
  return { prep: [...uprightFilter(p.rotation), ...toneMapFilter(p), `fps=${top}`].join(','), top };
}

/** A prepared picture to a rung: its frame rate, its size (`fastScale`: area averaging), 4:2:0. */
export const rungFilter = (r: Rendition, top: string, fastScale = false): string =>
  `${r.fps === top ? '' : `fps=${r.fps},`}scale=${r.width}:${r.height}${fastScale ? ':flags=area' : ''},setsar=1,format=yuv420p`;

/**
 * One decode of the source feeds every rendition, the poster and the storyboard: turned upright,
 * tone-mapped when HDR, set to a constant frame rate, then scaled per rung and encoded
 * quality-capped (CRF under a bitrate cap). The audio is encoded once, as an HLS audio group that
 * every rendition shares. Output: a VOD HLS ladder of fMP4 segments.
 */
export function planTranscode(o: TranscodeInput): { job: MediaJob; ladder: Rendition[] } {
  const s = o.settings ?? DEFAULT_LADDER;
  const p = o.probe;
  const ladder = o.rungs ?? selectLadder(p.width, p.height, p.fps, s);
  const { prep, top } = sourcePrep(p, s);
  const branches = ladder.map((_, i) => `[s${i}]`);
  const extra = [...(o.posterWithinSeconds !== undefined ? ['[sp]'] : []), ...(o.storyboard ? ['[sb]'] : [])];
  const graph = [
    `[0:v]${prep},split=${branches.length + extra.length}${branches.join('')}${extra.join('')}`,
    ...ladder.map((r, i) => `[s${i}]${rungFilter(r, top, o.fastScale)}[v${i}]`),
    ...(o.posterWithinSeconds !== undefined ? [posterFilter(o.posterWithinSeconds, rateValue(outputRate(p.fps, s.maxFps)))] : []),
    ...(o.storyboard ? [`[sb]${storyboardFilter(o.storyboard)},format=rgb24[story]`] : []),
    ...(p.hasAudio ? ['[0:a]aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo[aud]'] : []),
  ].join(';');

  const streams: OutputStream[] = [];
  if (p.hasAudio) streams.push({ kind: 'audio', label: 'aud', codec: 'aac', bitrate: s.audioKbps * 1000 });
  ladder.forEach((r, i) =>
    streams.push({ kind: 'video', label: `v${i}`, codec: 'libx264', ...rungEncoderOptions(r, s) }),
  );
  const group = p.hasAudio ? ',agroup:audio' : '';
  const streamMap = [
    ...(p.hasAudio ? [`a:0${group},name:${TRANSCODE_OUTPUTS.audio},default:yes`] : []),
    ...ladder.map((r, i) => `v:${i}${group},name:${renditionName(r)}`),
  ].join(' ');

  const job: MediaJob = {
    inputs: [{ url: o.input }],
    graph,
    outputs: [
      {
        url: `${o.outDir}/%v/index.m3u8`,
        format: 'hls',
        options: {
          hls_time: String(s.segmentSeconds),
          hls_playlist_type: 'vod',
          hls_segment_type: 'fmp4',
          hls_flags: 'independent_segments',
          hls_fmp4_init_filename: 'init.mp4',
          hls_segment_filename: `${o.outDir}/%v/seg_%05d.m4s`,
          master_pl_name: TRANSCODE_OUTPUTS.master,
          var_stream_map: streamMap,
        },
        streams,
      },
      ...(o.posterWithinSeconds !== undefined
        ? [{ url: `${o.outDir}/${TRANSCODE_OUTPUTS.poster}`, format: 'image2', frames: 1, streams: [{ kind: 'video' as const, label: 'poster', codec: 'png' }] }]
        : []),
      ...(o.storyboard
        ? [{ url: `${o.outDir}/${TRANSCODE_OUTPUTS.sprite}`, format: 'image2', frames: 1, streams: [{ kind: 'video' as const, label: 'story', codec: 'png' }] }]
        : []),
    ],
  };
  return { job, ladder };
}

/**
 * The progressive mp4 (downloads, players without HLS): the highest rung up to 720p and the
 * audio, copied from their fMP4 segments (already joined into one file each) into one mp4 with
 * its index first, so it plays while it downloads. No second encode.
 */
export function planProgressive(o: { video: string; audio?: string; out: string }): MediaJob {
  return {
    inputs: [{ url: o.video }, ...(o.audio ? [{ url: o.audio }] : [])],
    outputs: [
      {
        url: o.out,
        format: 'mp4',
        options: { movflags: '+faststart' },
        streams: [{ kind: 'video', copyFrom: 0 }, ...(o.audio ? [{ kind: 'audio' as const, copyFrom: 1 }] : [])],
      },
    ],
  };
}

/** The rendition the progressive mp4 copies: the highest up to 720p. */
export const progressiveRendition = (ladder: Rendition[]): Rendition => [...ladder].reverse().find((r) => r.rung <= 720) ?? ladder[0]!;

/** The poster comes from the first seconds (past a fade-in, before the video moves on): at most 3 s. */
export const posterWindow = (durationSeconds: number): number => Math.min(3, Math.max(0.5, durationSeconds / 4));

/**
 * The two passes of a transcode (ADR 019): the lowest rung alone first, at a speed preset no
 * slower than `firstPreset`, so the video plays within seconds of its upload; then the other
 * rungs from one more decode. When that made the lowest rung faster than its own preset, the
 * second pass makes it again at its own (`replacesFirst`): a 240p viewer then gets the efficient
 * encode's bytes (ADR 025, fifth round). A ladder of one rung is made once, at its own preset.
 */
export function planPasses(ladder: Rendition[], firstPreset: string): { first: Rendition; rest: Rendition[]; replacesFirst: boolean } {
  const [lowest, ...others] = ladder;
  if (!lowest) throw new Error('empty ladder');
  if (others.length === 0) return { first: lowest, rest: [], replacesFirst: false };
  const first = { ...lowest, preset: fasterPreset(lowest.preset, firstPreset) };
  const replacesFirst = first.preset !== lowest.preset;
  return { first, rest: replacesFirst ? [lowest, ...others] : others, replacesFirst };
}

/** The folder of a first pass's lowest rung that the second pass replaces: its own, so no stored file ever changes. */
export const fastRenditionName = (r: Pick<Rendition, 'rung'>): string => `${renditionName(r)}-fast`;
export const isFastRenditionName = (name: string): boolean => /^\d+p-fast$/.test(name);

/** A master playlist whose variant in folder `from` is read from folder `to` (the files moved with it). */
export function moveVariant(master: string, from: string, to: string): string {
  return master
    .split('\n')
    .map((line) => (line.trim() === `${from}/index.m3u8` ? `${to}/index.m3u8` : line))
    .join('\n');
}

/** x264's presets, fastest first. */
export const X264_PRESETS = ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow', 'slower', 'veryslow', 'placebo'];

/** The faster of two x264 presets (an unknown name counts as the slowest). */
function fasterPreset(a: string, b: string): string {
  const rank = (p: string) => (X264_PRESETS.includes(p) ? X264_PRESETS.indexOf(p) : X264_PRESETS.length);
  return rank(a) <= rank(b) ? a : b;
}

/**
 * One master playlist naming the variants of several (each pass's, ADR 019), in the order given:
 * header and rendition groups (the shared audio) once, then every `#EXT-X-STREAM-INF` with its URI.
 */
export function mergeMasters(masters: string[]): string {
  const head: string[] = [];
  const variants: string[] = [];
  for (const master of masters) {
    const lines = master.split(/\r?\n/).filter((l) => l.trim() !== '');
    for (let i = 0; i < lines.length; i += 1) {
      const line = lines[i]!;
      if (line.startsWith('#EXT-X-STREAM-INF:')) {
        const uri = lines[i + 1];
        if (uri !== undefined && !variants.includes(uri)) variants.push(line, uri);
        i += 1;
      } else if (!head.includes(line)) head.push(line);
    }
  }
  return `${[...head, ...variants].join('\n')}\n`;
}
