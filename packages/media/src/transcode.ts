import { AUDIO_KBPS, type Rendition } from './ladder.ts';
import { storyboardFilter, type StoryboardPlan } from './storyboard.ts';

export const SEGMENT_SECONDS = 4;

export interface TranscodeInput {
  input: string;
  /** Folder that receives master.m3u8, v{n}/index.m3u8, segments, poster.jpg, storyboard.jpg. */
  outDir: string;
  ladder: Rendition[];
  hasAudio: boolean;
  storyboard: StoryboardPlan;
  /** Where to grab the poster frame; omitted when the uploader gave a thumbnail. */
  posterAtSeconds?: number;
  segmentSeconds?: number;
  preset?: string;
}

/** File names inside outDir, relative. */
export const TRANSCODE_OUTPUTS = {
  master: 'master.m3u8',
  poster: 'poster.jpg',
  sprite: 'storyboard.jpg',
} as const;

/**
 * One ffmpeg process: the source is decoded once, split into every rendition (plus the poster
 * and storyboard branches) and written as a VOD HLS ladder of fMP4 segments. Keyframes are forced
 * on the segment grid in every rendition, so segments align and players can switch anywhere.
 */
export function buildTranscodeArgs(o: TranscodeInput): string[] {
  const seg = o.segmentSeconds ?? SEGMENT_SECONDS;
  const branches = o.ladder.map((_, i) => `[s${i}]`);
  const extra = [...(o.posterAtSeconds !== undefined ? ['[sp]'] : []), '[sb]'];
  const graph = [
    `[0:v]split=${branches.length + extra.length}${branches.join('')}${extra.join('')}`,
    ...o.ladder.map((r, i) => `[s${i}]scale=${r.width}:${r.height},setsar=1[v${i}]`),
    ...(o.posterAtSeconds !== undefined
      ? [`[sp]trim=start=${o.posterAtSeconds.toFixed(3)},setpts=PTS-STARTPTS,scale=-2:'min(720,ih)'[poster]`]
      : []),
    `[sb]${storyboardFilter(o.storyboard)}[story]`,
  ].join(';');

  const args = ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', '-nostats', '-progress', 'pipe:1', '-i', o.input];
  args.push('-filter_complex', graph);
  o.ladder.forEach((r, i) => {
    args.push('-map', `[v${i}]`);
    if (o.hasAudio) args.push('-map', '0:a:0');
    args.push(`-b:v:${i}`, `${r.videoKbps}k`, `-maxrate:v:${i}`, `${Math.round(r.videoKbps * 1.07)}k`, `-bufsize:v:${i}`, `${r.videoKbps * 2}k`);
  });
  args.push(
    '-c:v', 'libx264',
    '-preset', o.preset ?? 'veryfast',
    '-profile:v', 'high',
    '-pix_fmt', 'yuv420p',
    '-force_key_frames', `expr:gte(t,n_forced*${seg})`,
    '-sc_threshold', '0',
  );
  if (o.hasAudio) args.push('-c:a', 'aac', '-b:a', `${AUDIO_KBPS}k`, '-ac', '2', '-ar', '48000');
  const streamMap = o.ladder.map((_, i) => (o.hasAudio ? `v:${i},a:${i}` : `v:${i}`)).join(' ');
  args.push(
    '-f', 'hls',
    '-hls_time', String(seg),
    '-hls_playlist_type', 'vod',
    '-hls_segment_type', 'fmp4',
    '-hls_flags', 'independent_segments',
    '-hls_fmp4_init_filename', 'init.mp4',
    '-hls_segment_filename', `${o.outDir}/v%v/seg_%05d.m4s`,
    '-master_pl_name', TRANSCODE_OUTPUTS.master,
    '-var_stream_map', streamMap,
    `${o.outDir}/v%v/index.m3u8`,
  );
  if (o.posterAtSeconds !== undefined) {
    args.push('-map', '[poster]', '-frames:v', '1', '-q:v', '3', `${o.outDir}/${TRANSCODE_OUTPUTS.poster}`);
  }
  args.push('-map', '[story]', '-frames:v', '1', '-q:v', '5', `${o.outDir}/${TRANSCODE_OUTPUTS.sprite}`);
  return args;
}

/** A frame from early in the video but past a fade-in; at most 2 s in. */
export const posterTime = (durationSeconds: number): number => Math.min(2, durationSeconds / 4);
