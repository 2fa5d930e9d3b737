/**
 * A rate-quality sweep of the ladder's rungs on the transcode corpus, against PeerTube's ladder:
 * for each clip and rung, x264 at each preset and CRF (under the rung's cap, the job's keyframe
 * rule), its video bytes, SSIM against the source and encode CPU-seconds per preset, beside
 * PeerTube's rendition. What the defaults in packages/media/src/ladder.ts were chosen from.
 * Usage: npx tsx bench/ladder-sweep.ts   (SWEEP_SECONDS=10, SWEEP_PRESETS=veryfast,medium,slow
 * (`own`: each rung's preset in DEFAULT_LADDER), SWEEP_CRFS=21,23,25,27 (`+2`: the rung's CRF + 2),
 * SWEEP_RUNGS=240,360,480,720,1080,
 * SWEEP_CLIPS=synthetic,footage,screen, SWEEP_FILTER=hqdn3d after the scale, SWEEP_X264=psy=0 more
 * x264 parameters; writes bench/results/ladder-sweep-<clips>[-own].md)
 */
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { selectLadder, type MediaJob, type Rendition } from '@glimpse/media';
import { makeCorpus } from './corpus.ts';
import { cpuSeconds, fmt, loadNow, machine, media } from './lib.ts';
import { peertubeLadder } from './peertube-ladder.ts';
import { rungEncodesJob, scaleOnlyJob, ssims } from './quality.ts';
import { dbPerStep } from './rate-quality.ts';

const SECONDS = Number(process.env.SWEEP_SECONDS ?? 10);
const list = (v: string | undefined, d: string) => (v ?? d).split(',').filter(Boolean);
const PRESETS = list(process.env.SWEEP_PRESETS, 'veryfast,medium,slow');
const CRFS = list(process.env.SWEEP_CRFS, '21,23,25,27');
const RUNGS = list(process.env.SWEEP_RUNGS, '240,360,480,720,1080').map(Number);
const CLIPS = list(process.env.SWEEP_CLIPS, 'synthetic,footage,screen');
/** Filters after the scale (a denoiser, `hqdn3d=...`), to try. */
const FILTER = process.env.SWEEP_FILTER ? `,${process.env.SWEEP_FILTER}` : '';
/** x264 parameters added to the job's, to try (`psy=0:aq-mode=2`, x264's `--tune ssim`). */
const X264 = process.env.SWEEP_X264 ? `:${process.env.SWEEP_X264}` : '';
const root = path.resolve(`bench/tmp/sweep-${process.pid}`);

/** A listed CRF for a rung: a number, or `+n` above the rung's own. */
const crfFor = (crf: string, r: Rendition) => (crf.startsWith('+') ? String(r.crf + Number(crf.slice(1))) : crf);
const presetFor = (preset: string, r: Rendition) => (preset === 'own' ? r.preset : preset);

/** One decode, scaled as the job scales, into one mp4 per CRF at `preset` (null: no encode, the baseline). */
function job(source: string, r: Rendition, preset: string | null, out: (crf: string) => string): MediaJob {
  if (!preset) return scaleOnlyJob(source, r, FILTER);
  return rungEncodesJob(source, CRFS.map((crf) => ({ file: out(crf), width: r.width, height: r.height, preset, crf: crfFor(crf, r), maxKbps: r.maxKbps, x264: X264 })), FILTER);
}

async function cpuOf(fn: () => Promise<unknown>): Promise<number> {
  const c = cpuSeconds();
  await fn();
  return cpuSeconds() - c;
}

rmSync(root, { recursive: true, force: true });
mkdirSync(root, { recursive: true });
const { clips } = await makeCorpus(root, SECONDS);
const lines: string[] = [];
for (const clip of clips.filter((c) => CLIPS.includes(c.name))) {
  const pt = await peertubeLadder(clip.file, path.join(root, `peertube-${clip.name}`), { width: 1920, height: 1080, fps: 25, seconds: SECONDS });
  lines.push(
    `## ${clip.name}`,
    '',
    '| rung | preset | encode CPU-s per CRF | ' + CRFS.map((c) => `CRF ${c}: MB, SSIM`).join(' | ') + ' | SSIM dB lost per halving of the bytes, each CRF step | PeerTube: MB, SSIM |',
    `|---|---|---|${CRFS.map(() => '---|').join('')}---|---|`,
  );
  for (const rung of RUNGS) {
    const r = selectLadder(1920, 1080, 25).find((l) => l.rung === rung)!;
    const baseline = await cpuOf(() => media.engine.run(job(clip.file, r, null, () => '')));
    const encoded: { preset: string; crf: string; file: string; cpu: number }[] = [];
    for (const listed of PRESETS) {
      const preset = presetFor(listed, r);
      const out = (crf: string) => path.join(root, `${clip.name}-${rung}-${listed}-${crf}.mp4`);
      const cpu = (await cpuOf(() => media.engine.run(job(clip.file, r, preset, out)))) - baseline;
      for (const crf of CRFS) encoded.push({ preset: listed, crf, file: out(crf), cpu: cpu / CRFS.length });
    }
    const theirs = pt.renditions.find((x) => x.resolution === rung)!;
    const values = await ssims(clip.file, [...encoded, { file: theirs.file }].map((e) => ({ file: e.file, width: r.width, height: r.height })));
    for (const preset of PRESETS) {
      const points = encoded
        .map((e, i) => ({ e, crf: Number(crfFor(e.crf, r)), bytes: statSync(e.file).size, ssim: values[i]! }))
        .filter((x) => x.e.preset === preset);
      const cells = points.map((x) => `${fmt(x.bytes / 1e6, 3)}, ${fmt(x.ssim, 4)}`);
      const slopes = dbPerStep(points).map((d, i) => `${points[i]!.crf}->${points[i + 1]!.crf}: ${fmt(d, 2)}`);
      const cpu = encoded.find((e) => e.preset === preset)!.cpu;
      const named = preset === 'own' ? `${r.preset} (own), CRF ${r.crf}` : preset;
      lines.push(`| ${rung}p | ${named} | ${fmt(cpu, 2)} | ${cells.join(' | ')} | ${slopes.join(', ')} | ${fmt((theirs.bytes - pt.audioBytes) / 1e6, 3)}, ${fmt(values.at(-1)!, 4)} |`);
    }
    console.log(lines.slice(-PRESETS.length).join('\n'), `(load ${loadNow()})`);
  }
  lines.push('', `PeerTube: ${pt.steps.join('; ')}`, '');
}
const body = [
  '# ladder sweep',
  '',
  `- date: ${new Date().toISOString()}`,
  `- command: \`SWEEP_SECONDS=${SECONDS} SWEEP_PRESETS=${PRESETS.join(',')} SWEEP_CRFS=${CRFS.join(',')} SWEEP_RUNGS=${RUNGS.join(',')} SWEEP_CLIPS=${CLIPS.join(',')}${FILTER ? ` SWEEP_FILTER=${FILTER.slice(1)}` : ''}${X264 ? ` SWEEP_X264=${X264.slice(1)}` : ''} npx tsx bench/ladder-sweep.ts\``,
  `- machine: ${machine()}`,
  '',
  'Video only (mp4), each rung scaled from the 1080p source as the job scales it, under the rung\'s cap, a keyframe every 4 s; encode CPU-s: the job\'s CPU less a decode-and-scale-only run, per CRF. PeerTube: its rendition less its audio.',
  '',
  ...lines,
].join('\n');
const own = PRESETS.includes('own') ? '-own' : '';
writeFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), 'results', `ladder-sweep-${CLIPS.join('-')}${own}${FILTER ? '-filtered' : ''}${X264 ? '-x264' : ''}.md`), `${body}\n`);
console.log(body);
