import { describe, expect, it } from 'vitest';
import { LIVE_LOWER_RUNGS, liveMasterPlaylist, planLiveJob } from './live.ts';

describe('live ladder', () => {
  it('copies the source, encodes each lower rung capped and never above the source, and records only when asked', () => {
    const job = planLiveJob({ inputUrl: 'pipe:0', outDir: '/tmp/l', segmentSeconds: 2, listSize: 60, rungs: LIVE_LOWER_RUNGS, threads: 1 });
    expect(job.inputs).toEqual([{ url: 'pipe:0', format: 'flv' }]);
    expect(job.graph).toBe("[0:v]split=1[s0];[s0]fps=30,scale=w=-2:h='min(360\\,ih)',format=yuv420p[v0]");
    const [source, low] = job.outputs;
    expect(source).toMatchObject({ url: '/tmp/l/source/index.m3u8', format: 'hls', streams: [{ kind: 'video', copyFrom: 0 }, { kind: 'audio', copyFrom: 0 }] });
    expect(source!.options).toMatchObject({ hls_time: '2', hls_list_size: '60', hls_segment_type: 'mpegts', hls_segment_filename: '/tmp/l/source/seg_%06d.ts' });
    expect(source!.options!.hls_flags).toContain('temp_file');
    expect(low!.streams[0]).toMatchObject({ codec: 'libx264', maxrate: 800_000, bufsize: 1_600_000, options: { g: '60', keyint_min: '60', threads: '1' } });
    expect(job.outputs).toHaveLength(2);
    const recorded = planLiveJob({ inputUrl: 'pipe:0', outDir: '/tmp/l', segmentSeconds: 1, listSize: 6, rungs: [], recordingPath: '/tmp/l/r.mkv' });
    expect(recorded.graph).toBeUndefined();
    expect(recorded.outputs.map((o) => o.format)).toEqual(['hls', 'matroska']);
  });

  it('lists the copied source first, then each lower rung', () => {
    expect(liveMasterPlaylist(LIVE_LOWER_RUNGS)).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-STREAM-INF:BANDWIDTH=6000000\nsource/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=928000\n360p/index.m3u8\n',
    );
  });
});
