/** What the server needs to know about an uploaded file, from `ffprobe -print_format json`. */
export interface ProbeResult {
  durationSeconds: number;
  /** Display size: rotation metadata already applied. */
  width: number;
  height: number;
  hasAudio: boolean;
  /** ffprobe's demuxer names, e.g. ['mov', 'mp4', 'm4a', '3gp', '3g2', 'mj2']. */
  formatNames: string[];
  videoCodec: string;
}

export function buildProbeArgs(input: string): string[] {
  return ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', input];
}

interface RawStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  duration?: string;
  tags?: Record<string, string>;
  side_data_list?: { rotation?: number }[];
  disposition?: { attached_pic?: number };
}

interface RawProbe {
  streams?: RawStream[];
  format?: { format_name?: string; duration?: string };
}

export class ProbeError extends Error {}

function rotationOf(stream: RawStream): number {
  const fromSideData = stream.side_data_list?.find((s) => typeof s.rotation === 'number')?.rotation;
  const fromTag = stream.tags?.rotate !== undefined ? Number(stream.tags.rotate) : undefined;
  const deg = fromSideData ?? fromTag ?? 0;
  return Number.isFinite(deg) ? ((Math.round(deg) % 360) + 360) % 360 : 0;
}

/** Parses ffprobe JSON; throws ProbeError when the file holds no usable video stream. */
export function parseProbe(json: string): ProbeResult {
  let raw: RawProbe;
  try {
    raw = JSON.parse(json) as RawProbe;
  } catch {
    throw new ProbeError('ffprobe output is not JSON');
  }
  const streams = raw.streams ?? [];
  // Cover art in an mp4 is a video stream too; it is not the movie.
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (!video || !video.width || !video.height) throw new ProbeError('No video stream');
  const duration = Number(raw.format?.duration ?? video.duration);
  if (!Number.isFinite(duration) || duration <= 0) throw new ProbeError('Unknown duration');
  const quarterTurn = rotationOf(video) % 180 === 90;
  return {
    durationSeconds: duration,
    width: quarterTurn ? video.height : video.width,
    height: quarterTurn ? video.width : video.height,
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
    formatNames: (raw.format?.format_name ?? '').split(',').filter(Boolean),
    videoCodec: video.codec_name ?? 'unknown',
  };
}

/** The ISO base media family (mp4, mov, m4v): what the spec's "video must be mp4" admits. */
export const isMp4Family = (p: ProbeResult): boolean => p.formatNames.includes('mp4') || p.formatNames.includes('mov');
