import { describe, expect, it } from 'vitest';
import {
  buildProbeArgs,
  buildTranscodeArgs,
  checkTopLevelBoxes,
  isMp4Family,
  parseProbe,
  planStoryboard,
  posterTime,
  ProbeError,
  ProgressParser,
  progressFraction,
  selectLadder,
  storyboardVtt,
} from './index.ts';

describe('selectLadder', () => {
  it('takes every rung up to the source short side, never upscaling', () => {
    expect(selectLadder(1920, 1080).map((r) => r.rung)).toEqual([240, 360, 480, 720, 1080]);
    expect(selectLadder(1280, 720).map((r) => r.rung)).toEqual([240, 360, 480, 720]);
    expect(selectLadder(640, 360).map((r) => `${r.width}x${r.height}`)).toEqual(['426x240', '640x360']);
    expect(selectLadder(3840, 2160)).toHaveLength(5);
  });

  it('keeps portrait videos portrait, with even sizes', () => {
    expect(selectLadder(1080, 1920).map((r) => `${r.width}x${r.height}`)).toEqual([
      '240x426',
      '360x640',
      '480x854',
      '720x1280',
      '1080x1920',
    ]);
  });

  it('gives a tiny source one rendition at its own size', () => {
    expect(selectLadder(176, 144)).toEqual([{ rung: 144, width: 176, height: 144, videoKbps: 400 }]);
  });
});

const probeJson = (over: object = {}) =>
  JSON.stringify({
    streams: [
      { codec_type: 'video', codec_name: 'h264', width: 1920, height: 1080 },
      { codec_type: 'audio', codec_name: 'aac' },
    ],
    format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '12.5' },
    ...over,
  });

describe('parseProbe', () => {
  it('reads duration, size, audio and format names', () => {
    const p = parseProbe(probeJson());
    expect(p).toEqual({
      durationSeconds: 12.5,
      width: 1920,
      height: 1080,
      hasAudio: true,
      formatNames: ['mov', 'mp4', 'm4a', '3gp', '3g2', 'mj2'],
      videoCodec: 'h264',
    });
    expect(isMp4Family(p)).toBe(true);
  });

  it('swaps the size of a video rotated by 90 degrees', () => {
    const p = parseProbe(
      probeJson({
        streams: [{ codec_type: 'video', width: 1920, height: 1080, side_data_list: [{ rotation: -90 }] }],
      }),
    );
    expect([p.width, p.height, p.hasAudio]).toEqual([1080, 1920, false]);
  });

  it('refuses files without a video stream, cover art only, or no duration', () => {
    expect(() => parseProbe('not json')).toThrow(ProbeError);
    expect(() => parseProbe(probeJson({ streams: [{ codec_type: 'audio' }] }))).toThrow('No video stream');
    expect(() =>
      parseProbe(probeJson({ streams: [{ codec_type: 'video', width: 10, height: 10, disposition: { attached_pic: 1 } }] })),
    ).toThrow('No video stream');
    expect(() => parseProbe(probeJson({ format: { format_name: 'mov', duration: 'N/A' } }))).toThrow('Unknown duration');
  });

  it('tells mp4-family containers from others', () => {
    expect(isMp4Family(parseProbe(probeJson({ format: { format_name: 'matroska,webm', duration: '3' } })))).toBe(false);
    expect(buildProbeArgs('/x/in.mp4')).toEqual(['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '/x/in.mp4']);
  });
});

describe('checkTopLevelBoxes', () => {
  const box = (type: string, payload: number) => {
    const b = Buffer.alloc(8 + payload);
    b.writeUInt32BE(8 + payload, 0);
    b.write(type, 4, 'latin1');
    return b;
  };
  const reader = (file: Buffer) => async (offset: number, length: number) => file.subarray(offset, offset + length);

  it('accepts boxes that tile the file exactly', async () => {
    const file = Buffer.concat([box('ftyp', 16), box('moov', 100), box('mdat', 1000)]);
    expect(await checkTopLevelBoxes(reader(file), file.length)).toEqual({ ok: true, types: ['ftyp', 'moov', 'mdat'] });
  });

  it('finds a truncated file and text that is not mp4', async () => {
    const file = Buffer.concat([box('ftyp', 16), box('moov', 100), box('mdat', 1000)]).subarray(0, 600);
    expect(await checkTopLevelBoxes(reader(file), file.length)).toMatchObject({ ok: false, reason: expect.stringContaining('cut off') });
    const text = Buffer.from('hello, this is plain text and certainly not a video\n');
    expect((await checkTopLevelBoxes(reader(text), text.length)).ok).toBe(false);
  });

  it('understands 64-bit sizes and a last box running to the end', async () => {
    const large = Buffer.alloc(16 + 10);
    large.writeUInt32BE(1, 0);
    large.write('mdat', 4, 'latin1');
    large.writeBigUInt64BE(26n, 8);
    const toEnd = box('free', 4);
    toEnd.writeUInt32BE(0, 0);
    const file = Buffer.concat([box('ftyp', 8), large, toEnd]);
    expect(await checkTopLevelBoxes(reader(file), file.length)).toEqual({ ok: true, types: ['ftyp', 'mdat', 'free'] });
  });
});

describe('storyboard', () => {
  it('plans at most 100 tiles, at least 2 s apart, in rows of 10', () => {
    expect(planStoryboard(4, 640, 360)).toEqual({ intervalSeconds: 2, count: 2, columns: 2, rows: 1, tileWidth: 160, tileHeight: 90 });
    const long = planStoryboard(3600, 1920, 1080);
    expect([long.intervalSeconds, long.count, long.columns, long.rows]).toEqual([36, 100, 10, 10]);
  });

  it('writes WebVTT cues pointing into the sprite', () => {
    const plan = planStoryboard(25, 640, 360);
    const vtt = storyboardVtt(plan, 25, 'storyboard.jpg');
    const lines = vtt.split('\n');
    expect(lines[0]).toBe('WEBVTT');
    expect(lines).toContain('00:00:00.000 --> 00:00:02.000');
    expect(lines).toContain('storyboard.jpg#xywh=160,0,160,90');
    // 13 tiles: the 11th starts the second row; the last cue ends at the video's end.
    expect(lines).toContain('storyboard.jpg#xywh=0,90,160,90');
    expect(lines).toContain('00:00:24.000 --> 00:00:25.000');
  });
});

describe('buildTranscodeArgs', () => {
  const base = {
    input: '/w/source.mp4',
    outDir: '/w/out',
    ladder: selectLadder(1280, 720),
    storyboard: planStoryboard(10, 1280, 720),
  };
  const valueOf = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

  it('decodes once and splits into every rendition, the poster and the storyboard', () => {
    const args = buildTranscodeArgs({ ...base, hasAudio: true, posterAtSeconds: posterTime(10) });
    expect(args.filter((a) => a === '-i')).toHaveLength(1);
    const graph = valueOf(args, '-filter_complex')!;
    expect(graph).toMatch(/^\[0:v\]split=6\[s0\]\[s1\]\[s2\]\[s3\]\[sp\]\[sb\];/);
    expect(graph).toContain('[s3]scale=1280:720,setsar=1[v3]');
    expect(graph).toContain('trim=start=2.000');
    expect(graph).toContain('tile=5x1[story]');
    expect(valueOf(args, '-var_stream_map')).toBe('v:0,a:0 v:1,a:1 v:2,a:2 v:3,a:3');
    expect(valueOf(args, '-hls_segment_type')).toBe('fmp4');
    expect(valueOf(args, '-hls_time')).toBe('4');
    expect(valueOf(args, '-master_pl_name')).toBe('master.m3u8');
    expect(valueOf(args, '-force_key_frames')).toBe('expr:gte(t,n_forced*4)');
    expect(valueOf(args, '-sc_threshold')).toBe('0');
    expect(valueOf(args, '-c:a')).toBe('aac');
    expect(valueOf(args, '-progress')).toBe('pipe:1');
    expect(valueOf(args, '-b:v:3')).toBe('2800k');
    expect(args.filter((a) => a === '0:a:0')).toHaveLength(4);
    expect(args).toContain('/w/out/poster.jpg');
    expect(args.at(-1)).toBe('/w/out/storyboard.jpg');
  });

  it('leaves audio out for a silent source and the poster out when a thumbnail exists', () => {
    const args = buildTranscodeArgs({ ...base, hasAudio: false });
    expect(valueOf(args, '-var_stream_map')).toBe('v:0 v:1 v:2 v:3');
    expect(args).not.toContain('0:a:0');
    expect(args).not.toContain('-c:a');
    expect(valueOf(args, '-filter_complex')).toMatch(/^\[0:v\]split=5\[s0\]\[s1\]\[s2\]\[s3\]\[sb\];/);
    expect(args.join(' ')).not.toContain('poster');
  });
});

describe('ProgressParser', () => {
  it('parses blocks split across chunks and reports the end', () => {
    const p = new ProgressParser();
    expect(p.push('frame=10\nout_time_us=1500000\nprog')).toEqual([]);
    const [mid] = p.push('ress=continue\n');
    expect(mid).toEqual({ outTimeSeconds: 1.5, done: false });
    expect(progressFraction(mid!, 6)).toBe(0.25);
    const [end] = p.push('out_time_us=6000000\nprogress=end\n');
    expect(progressFraction(end!, 6)).toBe(1);
    expect(progressFraction({ outTimeSeconds: 9, done: false }, 6)).toBe(0.99);
    expect(progressFraction({ outTimeSeconds: 1, done: false }, 0)).toBe(0);
  });

  it('ignores N/A values', () => {
    const p = new ProgressParser();
    expect(p.push('out_time_us=N/A\nprogress=continue\n')).toEqual([{ outTimeSeconds: 0, done: false }]);
  });
});
