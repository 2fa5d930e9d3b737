import { useEffect, useState } from 'react';

/** Where the suggested thumbnails come from, as a share of the duration. */
export const FRAME_POSITIONS = [0.1, 0.5, 0.9] as const;
export type FramePosition = (typeof FRAME_POSITIONS)[number];
/** The server keeps thumbnails within 1280x720 (videos/thumbnail.ts): a bigger frame is wasted bytes. */
const BOX = { width: 1280, height: 720 };
/** JPEG qualities tried in turn, then the same at half the size, until a frame fits the thumbnail limit. */
const QUALITIES = [0.85, 0.7, 0.5];
/** A file the browser cannot decode may never say so: give up on it after this long per step. */
const STEP_TIMEOUT_MS = 8000;

export interface VideoFrame {
  /** A JPEG within the thumbnail limit, named like a picked file. */
  file: File;
  /** Its object URL for the preview (revoked when the frames are replaced). */
  url: string;
  position: FramePosition;
  /** Seconds into the video. */
  time: number;
}

/** The seconds to take frames at; none when the duration is unknown (a live or broken file). */
export function frameTimes(duration: number): { position: FramePosition; time: number }[] {
  if (!Number.isFinite(duration) || duration <= 0) return [];
  return FRAME_POSITIONS.map((position) => ({ position, time: duration * position }));
}

/** The canvas size for a frame: the video's own, shrunk (never grown) into the box, aspect kept. */
export function frameSize(width: number, height: number, box = BOX, scale = 1): { width: number; height: number } {
  const fit = Math.min(1, box.width / width, box.height / height) * scale;
  return { width: Math.max(1, Math.round(width * fit)), height: Math.max(1, Math.round(height * fit)) };
}

/** The next `event` on `target`, or a rejection on `error`, abort or timeout. */
function next(target: HTMLVideoElement, event: 'loadeddata' | 'seeked', signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (fn: () => void) => () => {
      clearTimeout(timer);
      target.removeEventListener(event, ok);
      target.removeEventListener('error', fail);
      signal.removeEventListener('abort', fail);
      fn();
    };
    const ok = done(resolve);
    const fail = done(() => reject(new Error('no frame')));
    const timer = setTimeout(fail, STEP_TIMEOUT_MS);
    target.addEventListener(event, ok, { once: true });
    target.addEventListener('error', fail, { once: true });
    signal.addEventListener('abort', fail, { once: true });
  });
}

const toJpeg = (canvas: HTMLCanvasElement, quality: number) => new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));

/** The frame now shown by `video` as a JPEG of at most `maxBytes`, or null. */
async function grab(video: HTMLVideoElement, maxBytes: number): Promise<Blob | null> {
  const canvas = document.createElement('canvas');
  for (const scale of [1, 0.5]) {
    const size = frameSize(video.videoWidth, video.videoHeight, BOX, scale);
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext('2d');
    if (!context) return null;
    context.drawImage(video, 0, 0, size.width, size.height);
    for (const quality of QUALITIES) {
      const blob = await toJpeg(canvas, quality);
      if (blob && blob.size <= maxBytes) return blob;
    }
  }
  return null;
}

/**
 * Three frames of a local video (10%, 50%, 90% of its length), drawn in the browser: nothing is
 * sent. A file the browser cannot decode (a codec it lacks) gives no frames, or only those it could.
 */
export async function captureFrames(file: Blob, { maxBytes, signal }: { maxBytes: number; signal: AbortSignal }): Promise<VideoFrame[]> {
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.preload = 'auto';
  const frames: VideoFrame[] = [];
  let source: string | null = null;
  try {
    source = URL.createObjectURL(file);
    video.src = source;
    await next(video, 'loadeddata', signal);
    if (!video.videoWidth || !video.videoHeight) return [];
    for (const { position, time } of frameTimes(video.duration)) {
      video.currentTime = time;
      await next(video, 'seeked', signal);
      const blob = await grab(video, maxBytes);
      if (signal.aborted) break;
      if (!blob) continue;
      const picture = new File([blob], `frame-${Math.round(position * 100)}.jpg`, { type: 'image/jpeg' });
      frames.push({ file: picture, url: URL.createObjectURL(picture), position, time });
    }
  } catch {
    // Undecodable, or given up: the frames made so far are offered.
  } finally {
    if (source) {
      URL.revokeObjectURL(source);
      // Frees the decoder now rather than at garbage collection.
      video.removeAttribute('src');
      video.load();
    }
  }
  if (signal.aborted) {
    frames.forEach((f) => URL.revokeObjectURL(f.url));
    return [];
  }
  return frames;
}

export type FramesStatus = 'idle' | 'making' | 'ready' | 'none';

/** The suggested frames of `file` (none while there is no file); previews are revoked when the file changes. */
export function useVideoFrames(file: File | null, maxBytes: number): { status: FramesStatus; frames: VideoFrame[] } {
  const [made, setMade] = useState<{ file: File; maxBytes: number; frames: VideoFrame[] } | null>(null);
  useEffect(() => {
    if (!file) return;
    const controller = new AbortController();
    let frames: VideoFrame[] = [];
    void captureFrames(file, { maxBytes, signal: controller.signal }).then((result) => {
      if (controller.signal.aborted) return result.forEach((f) => URL.revokeObjectURL(f.url));
      frames = result;
      setMade({ file, maxBytes, frames: result });
    });
    return () => {
      controller.abort();
      frames.forEach((f) => URL.revokeObjectURL(f.url));
    };
  }, [file, maxBytes]);
  if (!file) return { status: 'idle', frames: [] };
  if (made?.file !== file || made.maxBytes !== maxBytes) return { status: 'making', frames: [] };
  return { status: made.frames.length > 0 ? 'ready' : 'none', frames: made.frames };
}
