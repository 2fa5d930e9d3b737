import { describe, expect, it } from 'vitest';
import { chooseCrfs, CRF_PROBE, dbPerHalving, graphSafePath, meanSsim, planProbeEncodes, planProbeSsim, probeWindows, selectLadder, ssimDb, toFfmpegArgs, type ProbeResult } from './index.ts';
import { DEFAULT_LADDER } from './ladder.ts';

const probe: ProbeResult = {
  durationSeconds: 100,
  width: 1280,
  height: 720,
  rotation: 0,
  fps: 25,
  hasAudio: true,
  audioChannels: 2,
  formatNames: ['mov', 'mp4'],
  videoCodec: 'h264',
  pixelFormat: 'yuv420p',
  colorTransfer: 'bt709',
};
const rungs = selectLadder(1280, 720, 25).slice(0, 2);
const input = { input: '/w/source', probe, settings: DEFAULT_LADDER, rungs, dir: '/w/probe' };

describe('the CRF probe (a CRF per video)', () => {
  it('probes two short windows of a video of a minute or more, none of a shorter one', () => {
    expect(probeWindows(100)).toEqual([
      { seekSeconds: 29, durationSeconds: 2 },
      { seekSeconds: 69, durationSeconds: 2 },
    ]);
    expect(probeWindows(CRF_PROBE.minSeconds - 1)).toEqual([]);
    expect(probeWindows(NaN)).toEqual([]);
  });

  it('encodes a window once per rung and CRF (the rung CRF and one step up) as the job would, and measures each against its window', () => {
    const { job, encodes } = planProbeEncodes(input, 1);
    expect(job.inputs).toEqual([{ url: '/w/source', seekSeconds: 69, durationSeconds: 2 }]);
    expect(encodes.map((e) => `${e.rung.rung}p CRF ${e.crf}`)).toEqual(['240p CRF 25', '240p CRF 27', '360p CRF 25', '360p CRF 27']);
    expect(job.outputs.map((o) => o.url)).toEqual(encodes.map((e) => e.file));
    const args = toFfmpegArgs(job).join(' ');
    expect(args).toContain('-ss 69 -t 2 -i /w/source');
    expect(args).toContain('scale=426:240');
    expect(args).toMatch(/-crf:0 25 .*-threads:0 1/);
    expect(args).toContain('keyint=100:min-keyint=100');
    expect(() => planProbeEncodes(input, 2)).toThrow();

    const ssim = planProbeSsim(input, 1, encodes);
    expect(ssim.inputs[0]).toEqual({ url: '/w/source', seekSeconds: 69, durationSeconds: 2 });
    expect(ssim.inputs.slice(1)).toEqual(encodes.map((e) => ({ url: e.file, threads: 1 })));
    expect(ssim.outputs).toHaveLength(encodes.length);
    expect(ssim.graph!.match(/ssim=stats_file=/g)).toHaveLength(encodes.length);
    // The window scaled once per rung, for both of its CRFs.
    expect(ssim.graph!.match(/scale=426:240/g)).toHaveLength(1);
  });

  it('raises a rung one step where the step loses under the threshold per halving of the bytes, and keeps it otherwise', () => {
    const [low, high] = rungs as [(typeof rungs)[0], (typeof rungs)[0]];
    const at = (rung: typeof low, crf: number, bytes: number, ssim: number) => ({ encode: { rung, crf, window: 0, file: '' }, bytes, ssim });
    // 240p: grain (half the bytes for 0.3 dB); 360p: a clean picture (a third fewer bytes for 2 dB).
    const grainy = { from: { crf: 25, bytes: 2000, ssim: 0.97 }, to: { crf: 27, bytes: 1000, ssim: 0.9679 } };
    expect(dbPerHalving(grainy.from, grainy.to)).toBeCloseTo(ssimDb(0.97) - ssimDb(0.9679), 6);
    const { rungs: chosen, choices } = chooseCrfs(rungs, [
      at(low, 25, 2000, 0.97),
      at(low, 27, 1000, 0.9679),
      at(high, 25, 3000, 0.995),
      at(high, 27, 2000, 0.9937),
    ]);
    expect(chosen.map((r) => r.crf)).toEqual([27, 25]);
    expect(choices[0]!.dbPerHalving).toBeLessThan(CRF_PROBE.maxDbPerHalving);
    expect(choices[1]!.dbPerHalving).toBeGreaterThan(CRF_PROBE.maxDbPerHalving);
    // A step that saved nothing, or no measure at all, keeps the rung's CRF.
    expect(chooseCrfs([low], [at(low, 25, 1000, 0.97), at(low, 27, 1000, 0.96)]).rungs[0]!.crf).toBe(25);
    expect(chooseCrfs([low], []).rungs[0]!.crf).toBe(25);
  });

  it('reads the mean SSIM of an ssim stats file, and refuses paths a filter graph would misread', () => {
    expect(meanSsim('n:1 Y:0.99 U:0.98 V:0.97 All:0.980000 (17.0)\nn:2 Y:0.99 U:0.98 V:0.97 All:0.990000 (20.0)\n')).toBeCloseTo(0.985, 6);
    expect(meanSsim('')).toBeNaN();
    expect(graphSafePath('/data/tmp/transcode/abc-123/crf-probe')).toBe(true);
    expect(graphSafePath("/data/it's here")).toBe(false);
    expect(graphSafePath('/data/a:b')).toBe(false);
  });
});
