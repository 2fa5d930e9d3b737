import type { Live } from '@glimpse/contract';

/**
 * How far behind the live edge hls.js plays each latency mode (ADR 024, "Latency"); plain data, so
 * `npm run bench -- live` measures the watch page's own settings. Normal lives have 2 s segments,
 * low-latency ones 1 s.
 * - liveSyncDuration: seconds behind the newest segment's end that hls.js starts at and aims for;
 * - lowLatencyMode + maxLiveSyncPlaybackRate: after a stall it plays a little faster (up to that
 *   rate) to get back to that distance, but only near it, so a viewer who went back (DVR) stays
 *   there. There are no partial segments to load (FFmpeg's HLS muxer writes none).
 * No liveMaxLatencyDuration: hls.js would pull a viewer who went back further than it to the edge.
 */
export const liveHlsConfig: Record<Live['latencyMode'], { liveSyncDuration: number; lowLatencyMode: true; maxLiveSyncPlaybackRate: number }> = {
  normal: { liveSyncDuration: 3, lowLatencyMode: true, maxLiveSyncPlaybackRate: 1.1 },
  low: { liveSyncDuration: 1.2, lowLatencyMode: true, maxLiveSyncPlaybackRate: 1.25 },
};
