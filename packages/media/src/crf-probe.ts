/**
 * A CRF chosen per video (ADR 025, sixteenth round). Each rung has one CRF for every video, set
 * where clean pictures need it; on grainy footage x264 then spends bits on grain that SSIM barely
 * sees. Before the second pass, two short windows of the source are encoded at each rung's CRF
 * and one step above; where that step loses little SSIM for what it saves, the video gets it.
 */
import type { MediaJob } from './job.ts';
import type { LadderSettings, Rendition } from './ladder.ts';
import type { ProbeResult } from './probe.ts';
import { rungEncoderOptions, rungFilter, sourcePrep } from './transcode.ts';

/** A point of a rung's rate-quality curve: an encode at one CRF, its bytes and SSIM. */
export interface CurvePoint {
  crf: number;
  bytes: number;
  ssim: number;
}

/** SSIM in decibels, -10 log10(1 - SSIM): equal steps are equal ratios of what is left to lose. */
export const ssimDb = (ssim: number): number => -10 * Math.log10(1 - ssim);

/**
 * What a step up the CRF costs in quality for what it saves: the SSIM decibels lost per halving
 * of the bytes from `from` to `to`. Where it is small (grain that x264 spends bits on and SSIM
 * barely sees) a higher CRF for that video would cost little; where it is large it would not.
 */
export function dbPerHalving(from: CurvePoint, to: CurvePoint): number {
  return (ssimDb(from.ssim) - ssimDb(to.ssim)) / Math.log2(from.bytes / to.bytes);
}

export const CRF_PROBE = {
  /**
   * Videos shorter than this are not probed. The probe costs about what 11-13 s of the ladder's
   * encodes do (its windows at two CRFs, their SSIM): a fifth more CPU at 60 s, 4 % at 5 min.
   */
  minSeconds: 60,
  /**
   * Windows at these fractions of the video. Two, not three: on the bench's corpus the same
   * choices but one (a rung already under the bytes goal), for two thirds of the CPU.
   */
  at: [0.3, 0.7],
  windowSeconds: 2,
  /** The one step tried above the rung's CRF. More steps took clean rungs under their quality. */
  step: 2,
  /**
   * A step losing less than this many SSIM decibels per halving of the bytes is taken. On the
   * bench's corpus the grainy footage's 360p, 480p and 1080p lose 0.3-1.3; every clean rung
   * 1.9-7.3 (bench/results/ladder-sweep-synthetic-footage-screen-own.md).
   */
  maxDbPerHalving: 1.5,
} as const;

/** The windows probed in a video of `durationSeconds`: none when it is short. */
export function probeWindows(durationSeconds: number): { seekSeconds: number; durationSeconds: number }[] {
  if (!(durationSeconds >= CRF_PROBE.minSeconds)) return [];
  return CRF_PROBE.at.map((f) => ({ seekSeconds: Math.round((durationSeconds * f - CRF_PROBE.windowSeconds / 2) * 100) / 100, durationSeconds: CRF_PROBE.windowSeconds }));
}

/** One probe encode: a rung at a CRF, of one window. */
export interface ProbeEncode {
  rung: Rendition;
  crf: number;
  window: number;
  file: string;
}

export interface CrfProbeInput {
  input: string;
  probe: ProbeResult;
  settings: LadderSettings;
  rungs: Rendition[];
  /** A folder with only safe characters in its path (it is written into a filter graph). */
  dir: string;
}

/** Paths written into a filter graph: no quoting needed. */
export const graphSafePath = (p: string): boolean => /^[\w/.-]+$/.test(p);

/**
 * A probe encode's options: the rung's, at the probe's CRF, on one x264 thread. A window's ten
 * small encodes cost a tenth less CPU so than with a thread pool each; windows run side by side.
 */
function probeOptions(e: ProbeEncode, s: LadderSettings) {
  const o = rungEncoderOptions({ ...e.rung, crf: e.crf }, s);
  return { ...o, options: { ...o.options, threads: '1' } };
}

/** The encodes of one window: each rung, scaled as the job scales it, at its CRF and one step up. */
export function planProbeEncodes(o: CrfProbeInput, window: number): { job: MediaJob; encodes: ProbeEncode[] } {
  const w = probeWindows(o.probe.durationSeconds)[window];
  if (!w) throw new Error(`no probe window ${window}`);
  const { prep, top } = sourcePrep(o.probe, o.settings);
  const encodes = o.rungs.flatMap((rung) => [rung.crf, rung.crf + CRF_PROBE.step].map((crf) => ({ rung, crf, window, file: `${o.dir}/w${window}-${rung.rung}p-crf${crf}.mp4` })));
  const graph = [
    `[0:v]${prep},split=${o.rungs.length}${o.rungs.map((_, i) => `[s${i}]`).join('')}`,
    ...o.rungs.map((r, i) => `[s${i}]${rungFilter(r, top)},split=2[e${i}a][e${i}b]`),
  ].join(';');
  return {
    job: {
      inputs: [{ url: o.input, ...w }],
      graph,
      outputs: encodes.map((e, n) => ({
        url: e.file,
        format: 'mp4',
        streams: [{ kind: 'video', label: `e${Math.floor(n / 2)}${n % 2 === 0 ? 'a' : 'b'}`, codec: 'libx264', ...probeOptions(e, o.settings) }],
      })),
    },
    encodes,
  };
}

/**
 * The SSIM of a window's probe encodes against that window of the source, prepared and scaled as
 * the encodes were (once per rung, for both CRFs): a stats file per encode (`ssimStats`), read by
 * `meanSsim`.
 */
export function planProbeSsim(o: CrfProbeInput, window: number, encodes: ProbeEncode[]): MediaJob {
  const w = probeWindows(o.probe.durationSeconds)[window];
  if (!w) throw new Error(`no probe window ${window}`);
  const { prep, top } = sourcePrep(o.probe, o.settings);
  const mine = encodes.filter((e) => e.window === window);
  const ofRung = (rung: number) => mine.flatMap((e, n) => (e.rung.rung === rung ? [n] : []));
  const every = `framestep=${SSIM_FRAME_STEP},setpts=PTS-STARTPTS`;
  return {
    // Many small decodes side by side: one thread each costs less CPU than a pool each.
    inputs: [{ url: o.input, ...w }, ...mine.map((e) => ({ url: e.file, threads: 1 }))],
    graph: [
      `[0:v]${prep},split=${o.rungs.length}${o.rungs.map((r) => `[r${r.rung}]`).join('')}`,
      ...o.rungs.map((r) => `[r${r.rung}]${rungFilter(r, top)},${every},split=${ofRung(r.rung).length}${ofRung(r.rung).map((n) => `[ref${n}]`).join('')}`),
      // Both from zero: an encoder's start offset (B-frame delay) must not pair frame n with frame n+2.
      ...mine.map((e, n) => `[${n + 1}:v]${every},format=yuv420p[enc${n}];[enc${n}][ref${n}]ssim=stats_file=${ssimStats(e)}[out${n}]`),
    ].join(';'),
    outputs: mine.map((_, n) => ({ url: '/dev/null', format: 'null', streams: [{ kind: 'video', label: `out${n}`, codec: 'wrapped_avframe' }] })),
  };
}

/** SSIM is measured on every third frame: a window's mean is as good, for a third of the work. */
const SSIM_FRAME_STEP = 3;

export const ssimStats = (e: Pick<ProbeEncode, 'file'>): string => `${e.file}.ssim.log`;

/** The mean of the `All:` SSIM of each frame in an ssim filter's stats file (NaN when none). */
export function meanSsim(stats: string): number {
  const values = stats
    .split('\n')
    .map((l) => Number(/All:([\d.]+)/.exec(l)?.[1]))
    .filter((n) => Number.isFinite(n));
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN;
}

/** A rung's decision: its CRF and the step's measure (SSIM dB lost per halving of the bytes). */
export interface CrfChoice {
  rung: number;
  crf: number;
  dbPerHalving: number;
}

/**
 * Each rung at its CRF or one step up, from the probe encodes' bytes and SSIM (summed and averaged
 * over the windows). A step that saved nothing, or a measure that is not a number, keeps the CRF.
 */
export function chooseCrfs(rungs: Rendition[], measured: { encode: ProbeEncode; bytes: number; ssim: number }[]): { rungs: Rendition[]; choices: CrfChoice[] } {
  const choices = rungs.map((r) => {
    const at = (crf: number): CurvePoint => {
      const m = measured.filter((x) => x.encode.rung.rung === r.rung && x.encode.crf === crf);
      return { crf, bytes: m.reduce((n, x) => n + x.bytes, 0), ssim: m.reduce((n, x) => n + x.ssim, 0) / m.length };
    };
    const [base, stepped] = [at(r.crf), at(r.crf + CRF_PROBE.step)];
    const slope = stepped.bytes > 0 && stepped.bytes < base.bytes ? dbPerHalving(base, stepped) : NaN;
    const take = Number.isFinite(slope) && slope < CRF_PROBE.maxDbPerHalving;
    return { rung: r.rung, crf: take ? stepped.crf : r.crf, dbPerHalving: slope };
  });
  return { rungs: rungs.map((r, i) => ({ ...r, crf: choices[i]!.crf })), choices };
}
