import { describe, expect, it } from 'vitest';
import {
  buildProbeArgs,
  checkTopLevelBoxes,
  clipJob,
  displayMatrix,
  displayMatrixRotation,
  outputRate,
  planProgressive,
  mergeMasters,
  fastRenditionName,
  isFastRenditionName,
  moveVariant,
  planPasses,
  planTranscode,
  refusalOf,
  toFfmpegArgs,
  isMp4Family,
  parseProbe,
  planStoryboard,
  posterWindow,
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
    expect(selectLadder(176, 144)).toEqual([{ rung: 144, width: 176, height: 144, maxKbps: 400, crf: 25, preset: 'medium', fps: '30' }]);
  });

  it('adds the source\'s own size between rungs (288p, 719p), never above it', () => {
    expect(selectLadder(352, 288).map((r) => `${r.width}x${r.height}:${r.maxKbps}`)).toEqual(['294x240:400', '352x288:800']);
    expect(selectLadder(1279, 719).map((r) => `${r.width}x${r.height}`)).toEqual(['426x240', '640x360', '854x480', '1278x718']);
    expect(selectLadder(700, 400).map((r) => r.rung)).toEqual([240, 360]);
  });

  it('keeps 50/60 fps from 720p up and halves it below; odd rates snap to the standard ones', () => {
    expect(selectLadder(1280, 720, 60).map((r) => `${r.rung}:${r.fps}`)).toEqual(['240:30', '360:30', '480:30', '720:60']);
    expect(selectLadder(1920, 1080, 50).map((r) => r.fps)).toEqual(['25', '25', '25', '50', '50']);
    expect(outputRate(59.94, 30)).toEqual({ num: 30000, den: 1001 });
    expect(outputRate(29.5, 60)).toEqual({ num: 30000, den: 1001 });
    expect(outputRate(27, 60)).toEqual({ num: 27, den: 1 });
    expect(outputRate(120, 60)).toEqual({ num: 60, den: 1 });
    expect(outputRate(0, 30)).toEqual({ num: 30, den: 1 });
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
      rotation: 0,
      fps: 0,
      hasAudio: true,
      audioChannels: 0,
      formatNames: ['mov', 'mp4', 'm4a', '3gp', '3g2', 'mj2'],
      videoCodec: 'h264',
      pixelFormat: 'unknown',
      colorTransfer: 'unknown',
    });
    expect(isMp4Family(p)).toBe(true);
  });

  it('swaps the size of a video rotated by 90 degrees', () => {
    const p = parseProbe(
      probeJson({
        streams: [{ codec_type: 'video', width: 1920, height: 1080, side_data_list: [{ rotation: -90 }] }],
      }),
    );
    expect([p.width, p.height, p.hasAudio, p.rotation]).toEqual([1080, 1920, false, 90]);
    const tagged = parseProbe(probeJson({ streams: [{ codec_type: 'video', width: 1920, height: 1080, tags: { rotate: '270' }, avg_frame_rate: '30000/1001' }] }));
    expect([tagged.rotation, tagged.fps.toFixed(2)]).toEqual([270, '29.97']);
  });

  it('round-trips display matrices in ffprobe\'s convention', () => {
    for (const angle of [0, -90, 90, 180]) expect((Math.round(displayMatrixRotation(displayMatrix(angle))) + 360) % 360).toBe((angle + 360) % 360);
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

describe('refusalOf', () => {
  const max = { maxDurationSeconds: 3600 };
  const video = { codec_type: 'video', codec_name: 'vp9', width: 640, height: 360 };
  it('accepts the everyday containers by demuxer name', () => {
    for (const format_name of ['mov,mp4,m4a,3gp,3g2,mj2', 'matroska,webm', 'avi']) {
      expect(refusalOf({ streams: [video], format: { format_name, duration: '10' } }, max)).toBeUndefined();
    }
  });
  it('names audio-only files, pictures, other formats and videos that are too long', () => {
    expect(refusalOf({ streams: [{ codec_type: 'audio' }], format: { format_name: 'mp3', duration: '10' } }, max)).toBe('This file has only sound: upload a video file');
    expect(refusalOf({ streams: [{ ...video, codec_name: 'png' }], format: { format_name: 'png_pipe' } }, max)).toBe('This file is a picture: upload a video file');
    expect(refusalOf({ streams: [video], format: { format_name: 'mpegts', duration: '10' } }, max)).toMatch(/^Upload a video file \(mp4/);
    expect(refusalOf({ streams: [video], format: { format_name: 'matroska,webm', duration: '36000' } }, max)).toBe('Videos can be at most 60 minutes long');
    expect(refusalOf({ streams: [video], format: { format_name: 'matroska,webm', duration: '90' } }, { maxDurationSeconds: 60 })).toBe('Videos can be at most 1 minute long');
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

describe('planTranscode', () => {
  const probe = { ...parseProbe(probeJson()), width: 1280, height: 720, fps: 60 };
  const base = { input: '/w/source.mp4', outDir: '/w/out', probe, storyboard: planStoryboard(10, 1280, 720) };

  it('decodes once into every rendition, the poster and the storyboard; audio once, shared', () => {
    const { job, ladder } = planTranscode({ ...base, posterWithinSeconds: posterWindow(10) });
    expect(ladder.map((r) => r.rung)).toEqual([240, 360, 480, 720]);
    expect(job.inputs).toEqual([{ url: '/w/source.mp4' }]);
    expect(job.graph).toMatch(/^\[0:v\]fps=60,split=6\[s0\]\[s1\]\[s2\]\[s3\]\[sp\]\[sb\];/);
    expect(job.graph).toContain('[s0]fps=30,scale=426:240,setsar=1,format=yuv420p[v0]');
    expect(job.graph).toContain('[s3]scale=1280:720,setsar=1,format=yuv420p[v3]');
    // The poster is chosen among 5 frames a second of its window, not all 60.
    expect(job.graph).toContain("[sp]trim=end=2.5,fps=5,scale=-2:'min(720,ih)',thumbnail=n=13,format=rgb24[poster]");
    expect(job.graph).toContain('[0:a]aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo[aud]');
    const hls = job.outputs[0]!;
    expect(hls.options).toMatchObject({ hls_time: '4', hls_segment_type: 'fmp4', master_pl_name: 'master.m3u8' });
    expect(hls.options!.var_stream_map).toBe('a:0,agroup:audio,name:audio,default:yes v:0,agroup:audio,name:240p v:1,agroup:audio,name:360p v:2,agroup:audio,name:480p v:3,agroup:audio,name:720p');
    expect(hls.streams.filter((s) => s.kind === 'audio')).toHaveLength(1);
    // Quality-capped: CRF under each rung's cap; a keyframe every 4 s at each rung's own rate.
    expect(hls.streams[1]).toMatchObject({ codec: 'libx264', fps: '30', maxrate: 400_000, bufsize: 800_000, options: { crf: '25', preset: 'medium', 'x264-params': 'keyint=120:min-keyint=120:scenecut=0:open-gop=0:bframes=16:b-adapt=1' } });
    expect(hls.streams[4]).toMatchObject({ fps: '60', maxrate: 2_800_000, options: { crf: '24', preset: 'faster', 'x264-params': 'keyint=240:min-keyint=240:scenecut=0:open-gop=0:bframes=16:b-adapt=1' } });
    expect(job.outputs.map((o) => o.url)).toEqual(['/w/out/%v/index.m3u8', '/w/out/poster.png', '/w/out/storyboard.png']);
  });

  it('turns portrait phone videos upright, tone-maps HDR, and leaves out audio and poster when absent', () => {
    const { job, ladder } = planTranscode({ ...base, probe: { ...probe, width: 720, height: 1280, rotation: 90, colorTransfer: 'smpte2084', hasAudio: false } });
    expect(ladder.map((r) => `${r.width}x${r.height}`)).toEqual(['240x426', '360x640', '480x854', '720x1280']);
    expect(job.graph).toMatch(/^\[0:v\]transpose=clock,zscale=tin=smpte2084:pin=bt2020:min=bt2020nc:t=linear:npl=100,.*tonemap=tonemap=hable.*,fps=60,split=5/);
    expect(job.graph).not.toContain('[0:a]');
    expect(job.outputs[0]!.options!.var_stream_map).toBe('v:0,name:240p v:1,name:360p v:2,name:480p v:3,name:720p');
    expect(job.outputs.map((o) => o.url)).not.toContain('/w/out/poster.png');
  });

  it('chooses the poster among every frame of a source slower than 5 frames a second', () => {
    const { job } = planTranscode({ ...base, probe: { ...probe, fps: 2 }, posterWithinSeconds: 3 });
    expect(job.graph).toContain("[sp]trim=end=3,scale=-2:'min(720,ih)',thumbnail=n=6,format=rgb24[poster]");
  });

  it('writes the same job as a system ffmpeg command line', () => {
    const { job } = planTranscode({ ...base, posterWithinSeconds: 1 });
    const args = toFfmpegArgs(job);
    const valueOf = (flag: string) => args[args.indexOf(flag) + 1];
    expect(args.slice(args.indexOf('-noautorotate'), args.indexOf('-noautorotate') + 3)).toEqual(['-noautorotate', '-i', '/w/source.mp4']);
    expect(valueOf('-filter_complex')).toBe(job.graph);
    expect(valueOf('-progress')).toBe('pipe:1');
    expect(args.join(' ')).toContain('-map [aud] -c:0 aac -b:0 128000 -map [v0] -c:1 libx264 -maxrate:1 400000 -bufsize:1 800000 -preset:1 medium -crf:1 25');
    expect(args.join(' ')).toContain('-f hls -hls_time 4');
    expect(args.join(' ')).toContain('-map [poster] -c:0 png -frames:v 1 -f image2 /w/out/poster.png');
    expect(toFfmpegArgs(planProgressive({ video: '/w/v.mp4', audio: '/w/a.mp4', out: '/w/p.mp4' })).join(' ')).toContain(
      '-map 0:v:0 -c:0 copy -map 1:a:0 -c:1 copy -f mp4 -movflags +faststart /w/p.mp4',
    );
    expect(() => toFfmpegArgs(clipJob({ out: '/w/c.mp4', seconds: 1, width: 64, height: 64, container: 'mp4', displayRotation: -90 }))).toThrow(/bundled/);
  });
});

describe('two passes (ADR 019)', () => {
  const probe = { ...parseProbe(probeJson()), width: 1280, height: 720, fps: 60 };
  const ladder = selectLadder(1280, 720, 60);

  it('makes the lowest rung first at a preset no slower than the first pass allows, then the rest as planned, with the lowest again when it was made faster', () => {
    const { first, rest, replacesFirst } = planPasses(ladder, 'veryfast');
    expect(first).toEqual({ ...ladder[0], preset: 'veryfast' });
    expect(ladder[0]!.preset).toBe('medium');
    expect([rest, replacesFirst]).toEqual([ladder, true]);
    // A first pass allowed the rung's own preset (or a slower one) makes it once.
    expect(planPasses(ladder, 'medium')).toEqual({ first: ladder[0], rest: ladder.slice(1), replacesFirst: false });
    expect(planPasses(ladder, 'slow')).toEqual({ first: ladder[0], rest: ladder.slice(1), replacesFirst: false });
    // A ladder of one rung has nothing to replace it later: made once, at its own preset.
    expect(planPasses([ladder[0]!], 'veryfast')).toEqual({ first: ladder[0], rest: [], replacesFirst: false });
    expect(planPasses([{ ...ladder[0]!, preset: 'ultrafast' }], 'veryfast')).toEqual({ first: { ...ladder[0], preset: 'ultrafast' }, rest: [], replacesFirst: false });
    const one = planTranscode({ input: '/w/s.mp4', outDir: '/w/first', probe, rungs: [first] });
    expect(one.job.outputs[0]!.options!.var_stream_map).toBe('a:0,agroup:audio,name:audio,default:yes v:0,agroup:audio,name:240p');
    expect(one.job.graph).toMatch(/^\[0:v\]fps=60,split=1\[s0\];/);
    // Without a storyboard plan, no sprite.
    expect(one.job.outputs.map((o) => o.url)).toEqual(['/w/first/%v/index.m3u8']);
    // A rung made again later is scaled by area averaging (faster); a kept one bicubic, the default.
    expect(one.job.graph).toContain('[s0]fps=30,scale=426:240,setsar=1');
    const fast = planTranscode({ input: '/w/s.mp4', outDir: '/w/first', probe, rungs: [first], fastScale: true });
    expect(fast.job.graph).toContain('[s0]fps=30,scale=426:240:flags=area,setsar=1');
  });

  it('merges the passes\' master playlists: the audio group once, every variant in order', () => {
    const head = '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="group_audio",NAME="audio_0",DEFAULT=YES,CHANNELS="2",URI="audio/index.m3u8"\n';
    const low = `${head}#EXT-X-STREAM-INF:BANDWIDTH=315730,RESOLUTION=426x240,AUDIO="group_audio"\n240p/index.m3u8\n`;
    const rest = `${head}#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360,AUDIO="group_audio"\n360p/index.m3u8\n\n#EXT-X-STREAM-INF:BANDWIDTH=1500000,RESOLUTION=854x480,AUDIO="group_audio"\n480p/index.m3u8\n`;
    const merged = mergeMasters([low, rest]);
    expect(merged).toBe(
      `${head}#EXT-X-STREAM-INF:BANDWIDTH=315730,RESOLUTION=426x240,AUDIO="group_audio"\n240p/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360,AUDIO="group_audio"\n360p/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=1500000,RESOLUTION=854x480,AUDIO="group_audio"\n480p/index.m3u8\n`,
    );
    // Merging again (a retried second pass) changes nothing.
    expect(mergeMasters([merged, rest])).toBe(merged);
    // The first pass's fast lowest rung is stored in a folder of its own; its playlist names that folder.
    expect(fastRenditionName(ladder[0]!)).toBe('240p-fast');
    expect([isFastRenditionName('240p-fast'), isFastRenditionName('240p'), isFastRenditionName('../240p-fast')]).toEqual([true, false, false]);
    const moved = moveVariant(low, '240p', '240p-fast');
    expect(moved).toBe(low.replace('\n240p/index.m3u8\n', '\n240p-fast/index.m3u8\n'));
    expect(moveVariant(moved, '360p', '360p-fast')).toBe(moved);
  });
});

describe('ProgressParser', () => {
  it('parses blocks split across chunks and reports the end', () => {
    const p = new ProgressParser();
    expect(p.push('frame=10\nout_time_us=1500000\nprog')).toEqual([]);
    const [mid] = p.push('ress=continue\n');
    expect(mid).toEqual({ outTimeSeconds: 1.5, done: false });
    expect(progressFraction(mid!.outTimeSeconds, 6)).toBe(0.25);
    expect(p.push('out_time_us=6000000\nprogress=end\n')).toEqual([{ outTimeSeconds: 6, done: true }]);
    expect(progressFraction(9, 6)).toBe(0.99);
    expect(progressFraction(1, 0)).toBe(0);
  });

  it('ignores N/A values', () => {
    const p = new ProgressParser();
    expect(p.push('out_time_us=N/A\nprogress=continue\n')).toEqual([{ outTimeSeconds: 0, done: false }]);
  });
});

describe('clipJob sources', () => {
  it('adds size, rate and length to a source with its own options, and cuts sources without a duration option by a trim in their own graph', () => {
    const url = (pattern: string) => clipJob({ out: '/w/c.mp4', seconds: 3, width: 64, height: 36, pattern, container: 'mp4' }).inputs[0]!.url;
    expect(url('testsrc2')).toBe('testsrc2=size=64x36:rate=25:duration=3');
    expect(url('gradients=c0=#102030:c1=#405060')).toBe('gradients=c0=#102030:c1=#405060:size=64x36:rate=25:duration=3');
    expect(url('mandelbrot')).toBe('mandelbrot=size=64x36:rate=25,trim=duration=3');
    expect(url('cellauto=rule=110')).toBe('cellauto=rule=110:size=64x36:rate=25,trim=duration=3');
  });
});
