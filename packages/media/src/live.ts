/**
 * The live ladder (ADR 024): the encoder's own picture copied as the top rung (no re-encode, no
 * added delay), plus lower rungs encoded once each and capped like the VOD ladder's, all cut into
 * short MPEG-TS segments by FFmpeg's HLS muxer, each rung with the audio copied beside it. The
 * copied rung's segments start at the encoder's keyframes (OBS: a keyframe every 2 s).
 */
import type { MediaJob, MediaOutput } from './job.ts';

export interface LiveRung {
  /** Folder and variant name, such as '360p'. */
  name: string;
  /** Short side, pixels; never above the source (the scale keeps the smaller of the two). */
  height: number;
  /** Cap, bits per second (maxrate; twice that as buffer). */
  maxrate: number;
}

/** The lower rungs a live gets beside its source: what phones on a poor network need. */
export const LIVE_LOWER_RUNGS: LiveRung[] = [{ name: '360p', height: 360, maxrate: 800_000 }];

export interface LivePlan {
  /** Where the engine reads the FLV the ingest hands it ('pipe:0'). */
  inputUrl: string;
  outDir: string;
  segmentSeconds: number;
  /** Segments kept in each playlist: the DVR window. */
  listSize: number;
  rungs: LiveRung[];
  /** A copy of the source (video and audio, no re-encode) for the replay, or none. */
  recordingPath?: string;
  /** Encoder threads for each lower rung (tests use 1). */
  threads?: number;
}

/** The name of the copied rung's folder. */
export const LIVE_SOURCE = 'source';

export function planLiveJob(p: LivePlan): MediaJob {
  const fps = 30;
  const gop = String(Math.round(fps * p.segmentSeconds));
  const graph = p.rungs.length
    ? `[0:v]split=${p.rungs.length}${p.rungs.map((_, i) => `[s${i}]`).join('')};` +
      p.rungs.map((r, i) => `[s${i}]fps=${fps},scale=w=-2:h='min(${r.height}\\,ih)',format=yuv420p[v${i}]`).join(';')
    : undefined;
  const hls = (name: string): MediaOutput['options'] => ({
    hls_time: String(p.segmentSeconds),
    hls_list_size: String(p.listSize),
    hls_segment_type: 'mpegts',
    // temp_file: a segment or playlist appears under its name only once complete, so the copy to the storage never reads half a file.
    hls_flags: 'delete_segments+independent_segments+temp_file+program_date_time',
    hls_delete_threshold: '2',
    hls_segment_filename: `${p.outDir}/${name}/seg_%06d.ts`,
  });
  const outputs: MediaOutput[] = [
    {
      url: `${p.outDir}/${LIVE_SOURCE}/index.m3u8`,
      format: 'hls',
      options: hls(LIVE_SOURCE),
      streams: [
        { kind: 'video', copyFrom: 0 },
        { kind: 'audio', copyFrom: 0 },
      ],
    },
    ...p.rungs.map((r, i) => ({
      url: `${p.outDir}/${r.name}/index.m3u8`,
      format: 'hls',
      options: hls(r.name),
      streams: [
        {
          kind: 'video' as const,
          label: `v${i}`,
          codec: 'libx264',
          fps: String(fps),
          maxrate: r.maxrate,
          bufsize: r.maxrate * 2,
          options: {
            preset: 'veryfast',
            tune: 'zerolatency',
            crf: '23',
            g: gop,
            keyint_min: gop,
            sc_threshold: '0',
            ...(p.threads ? { threads: String(p.threads) } : {}),
          },
        },
        { kind: 'audio' as const, copyFrom: 0 },
      ],
    })),
  ];
  if (p.recordingPath) {
    outputs.push({
      url: p.recordingPath,
      // Matroska stays readable up to its last cluster if the engine is killed mid-way.
      format: 'matroska',
      streams: [
        { kind: 'video', copyFrom: 0 },
        { kind: 'audio', copyFrom: 0 },
      ],
    });
  }
  return { inputs: [{ url: p.inputUrl, format: 'flv' }], ...(graph ? { graph } : {}), outputs };
}

/**
 * The master playlist of a live: the copied source first, then the lower rungs. The source's size and
 * rate are the encoder's, unknown when the session starts: its BANDWIDTH is what a 1080p30 OBS stream
 * usually sends, so hls.js starts on it where the network allows and steps down to 360p where not.
 */
export function liveMasterPlaylist(rungs: LiveRung[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS'];
  lines.push('#EXT-X-STREAM-INF:BANDWIDTH=6000000', `${LIVE_SOURCE}/index.m3u8`);
  for (const r of rungs) lines.push(`#EXT-X-STREAM-INF:BANDWIDTH=${r.maxrate + 128_000}`, `${r.name}/index.m3u8`);
  return `${lines.join('\n')}\n`;
}
