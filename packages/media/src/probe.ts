import { VIDEO_UPLOAD } from '@glimpse/contract';

/**
 * What the server needs to know about an uploaded file. Both engines describe a file in the
 * shape of `ffprobe -print_format json -show_format -show_streams` (the bundled engine writes
 * that shape itself), and `parseProbe` reads it.
 */
export interface ProbeResult {
  durationSeconds: number;
  /** Display size: rotation metadata already applied. */
  width: number;
  height: number;
  /** Clockwise degrees (0, 90, 180, 270) the picture must be turned to be shown upright. */
  rotation: number;
  /** Average frame rate (frames per second). */
  fps: number;
  hasAudio: boolean;
  audioChannels: number;
  /** Demuxer names, e.g. ['mov', 'mp4', 'm4a', '3gp', '3g2', 'mj2']. */
  formatNames: string[];
  videoCodec: string;
  pixelFormat: string;
  /** Colour transfer: 'smpte2084' (PQ) and 'arib-std-b67' (HLG) mean HDR. */
  colorTransfer: string;
  /** Frames in the video stream when the container says (mp4 does), else undefined. */
  frameCount?: number;
}

export function buildProbeArgs(input: string): string[] {
  return ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', input];
}

export interface RawStream {
  index?: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  color_transfer?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  nb_frames?: string;
  channels?: number;
  duration?: string;
  tags?: Record<string, string>;
  side_data_list?: { side_data_type?: string; rotation?: number }[];
  disposition?: { attached_pic?: number };
}

export interface RawProbe {
  streams?: RawStream[];
  format?: { format_name?: string; duration?: string };
}

export class ProbeError extends Error {}

/** Said to the uploader when a file cannot be read as a video at all (or is cut off). */
export const NOT_A_VIDEO = 'The uploaded file is not a video we can read';

/** Clockwise turn: the display matrix's angle is counter-clockwise, the old `rotate` tag clockwise. */
function rotationOf(stream: RawStream): number {
  const matrix = stream.side_data_list?.find((s) => typeof s.rotation === 'number')?.rotation;
  const deg = matrix !== undefined ? -matrix : Number(stream.tags?.rotate ?? 0);
  if (!Number.isFinite(deg)) return 0;
  return ((Math.round(deg / 90) * 90) % 360 + 360) % 360;
}

function rate(text: string | undefined): number {
  const [num, den] = (text ?? '').split('/').map(Number);
  if (!num || !Number.isFinite(num)) return 0;
  return den ? num / den : num;
}

/**
 * The rate frames were shot at: the base rate (r_frame_rate) unless the average is higher or the
 * base is implausible. A variable-rate phone video averages below its base rate, and a file with
 * a timestamp gap averages next to nothing: neither is the rate to encode at.
 */
function frameRate(s: RawStream): number {
  const base = rate(s.r_frame_rate);
  const avg = rate(s.avg_frame_rate);
  return base > 0 && base <= 120 && avg <= base * 1.01 ? base : avg || base;
}

/** Parses ffprobe-shaped JSON; throws ProbeError when the file holds no usable video stream. */
export function parseProbe(json: string): ProbeResult {
  let raw: RawProbe;
  try {
    raw = JSON.parse(json) as RawProbe;
  } catch {
    throw new ProbeError('probe output is not JSON');
  }
  const streams = raw.streams ?? [];
  // Cover art in an mp4 or mp3 is a video stream too; it is not the movie.
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (!video || !video.width || !video.height) throw new ProbeError('No video stream');
  const duration = Number(raw.format?.duration ?? video.duration);
  if (!Number.isFinite(duration) || duration <= 0) throw new ProbeError('Unknown duration');
  const rotation = rotationOf(video);
  const quarterTurn = rotation % 180 === 90;
  const frames = Number(video.nb_frames);
  return {
    durationSeconds: duration,
    width: quarterTurn ? video.height : video.width,
    height: quarterTurn ? video.width : video.height,
    rotation,
    fps: frameRate(video),
    hasAudio: audio !== undefined,
    audioChannels: audio?.channels ?? 0,
    formatNames: (raw.format?.format_name ?? '').split(',').filter(Boolean),
    videoCodec: video.codec_name ?? 'unknown',
    pixelFormat: video.pix_fmt ?? 'unknown',
    colorTransfer: video.color_transfer ?? 'unknown',
    ...(Number.isFinite(frames) && frames > 0 ? { frameCount: frames } : {}),
  };
}

/** The ISO base media family (mp4, mov, m4v, 3gp): files whose top-level boxes can be checked. */
export const isMp4Family = (p: Pick<ProbeResult, 'formatNames'>): boolean => p.formatNames.includes('mp4') || p.formatNames.includes('mov');

/** Containers accepted for upload, by the demuxer that recognised the content (not the name). */
const ACCEPTED_DEMUXERS = ['mov', 'mp4', 'matroska', 'webm', 'avi'];

export const isHdr = (p: Pick<ProbeResult, 'colorTransfer'>): boolean => p.colorTransfer === 'smpte2084' || p.colorTransfer === 'arib-std-b67';


/**
 * Why an upload cannot become a video, or undefined when it can. Audio-only files and still
 * images are refused by name, so the uploader knows what went wrong.
 */
export function refusalOf(raw: RawProbe, opts: { maxDurationSeconds: number }): string | undefined {
  const streams = raw.streams ?? [];
  const formats = (raw.format?.format_name ?? '').split(',');
  const movie = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (!movie && streams.some((s) => s.codec_type === 'audio')) return 'This file has only sound: upload a video file';
  const stillCodecs = ['png', 'mjpeg', 'gif', 'webp', 'bmp', 'tiff', 'jpegxl'];
  if (formats.some((f) => f.endsWith('_pipe') || f === 'image2') || (movie && stillCodecs.includes(movie.codec_name ?? '') && !formats.includes('avi'))) {
    return 'This file is a picture: upload a video file';
  }
  if (!movie || !formats.some((f) => ACCEPTED_DEMUXERS.includes(f))) return `Upload a video file (${VIDEO_UPLOAD.text})`;
  const duration = Number(raw.format?.duration ?? movie.duration);
  if (Number.isFinite(duration) && duration > opts.maxDurationSeconds) {
    const minutes = Math.floor(opts.maxDurationSeconds / 60);
    return `Videos can be at most ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} long`;
  }
  return undefined;
}

const CONV_FP = (x: number) => x / 65536;

/** The angle of a display matrix (nine int32, 16.16 fixed point), as ffprobe prints it. */
export function displayMatrixRotation(matrix: Buffer): number {
  const m = (i: number) => CONV_FP(matrix.readInt32LE(i * 4));
  const s0 = Math.hypot(m(0), m(3));
  const s1 = Math.hypot(m(1), m(4));
  if (s0 === 0 || s1 === 0) return 0;
  return -((Math.atan2(m(1) / s1, m(0) / s0) * 180) / Math.PI);
}

/** A display matrix whose angle (as ffprobe prints it) is `angle`: -90 is what a phone held upright writes. */
export function displayMatrix(angle: number): Buffer {
  const r = (angle * Math.PI) / 180;
  const fixed = (x: number) => Math.trunc(x * 65536);
  const values = [fixed(Math.cos(r)), fixed(-Math.sin(r)), 0, fixed(Math.sin(r)), fixed(Math.cos(r)), 0, 0, 0, 1 << 30];
  const buf = Buffer.alloc(36);
  values.forEach((v, i) => buf.writeInt32LE(v, i * 4));
  return buf;
}
