import path from 'node:path';

/** Types of the files the media pipeline writes; players are strict about the HLS ones. */
const TYPES: Record<string, string> = {
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.m4s': 'video/iso.segment',
  // Live segments (ADR 024).
  '.ts': 'video/mp2t',
  '.mp4': 'video/mp4',
  '.vtt': 'text/vtt; charset=utf-8',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
};

export const contentTypeOf = (key: string): string => TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream';
