import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clipJob, CRF_PROBE, DEFAULT_LADDER, parseProbe, selectLadder } from '@glimpse/media';
import { testMedia } from '../../../test/harness.ts';
import { probeCrfs } from './crf-probe.ts';

let dir: string;
let clean: Awaited<ReturnType<typeof clip>>;
let grainy: Awaited<ReturnType<typeof clip>>;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-crf-probe-'));
  [clean, grainy] = [await clip('clean', false), await clip('grainy', true)];
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const { engine } = testMedia;
const run = { signal: new AbortController().signal, stallSeconds: 60 };

/** A minute of 320x240 at x264 ultrafast (a camera's cheap encode), `grain` as light temporal noise on the picture (film grain). */
async function clip(name: string, grain: boolean, seconds: number = CRF_PROBE.minSeconds) {
  const out = path.join(dir, `${name}.mp4`);
  await engine.run(
    clipJob({ out, seconds, width: 320, height: 240, pattern: 'testsrc2', videoFilter: grain ? 'noise=alls=12:allf=t' : undefined, container: 'mp4', video: { codec: 'libx264', options: { preset: 'ultrafast', crf: '18' } }, audio: false }),
  );
  const probe = parseProbe(JSON.stringify(await engine.probe(out)));
  return { input: out, probe, settings: DEFAULT_LADDER, rungs: selectLadder(probe.width, probe.height, probe.fps), dir: path.join(dir, `probe-${name}`) };
}

describe('the CRF probe with the real engine', () => {
  it('raises the CRF of a grainy video, where a step up costs SSIM little, and keeps a clean one; leaves no files', async () => {
    const [kept, raised] = [await probeCrfs(engine, clean, run), await probeCrfs(engine, grainy, run)];
    const base = clean.rungs[0]!.crf;
    expect(kept!.rungs.map((r) => r.crf)).toEqual([base]);
    expect(kept!.choices[0]!.dbPerHalving).toBeGreaterThan(CRF_PROBE.maxDbPerHalving);
    expect(raised!.rungs.map((r) => r.crf)).toEqual([base + CRF_PROBE.step]);
    expect(raised!.choices[0]!.dbPerHalving).toBeLessThan(CRF_PROBE.maxDbPerHalving);
    expect((await readdir(dir)).filter((f) => f.startsWith('probe-'))).toEqual([]);
  });

  it('does not probe a short video, or when the operator turned it off', async () => {
    const short = await clip('short', false, CRF_PROBE.minSeconds - 5);
    expect(await probeCrfs(engine, short, run)).toBeNull();
    expect(await probeCrfs(engine, { ...grainy, settings: { ...DEFAULT_LADDER, crfProbe: false } }, run)).toBeNull();
  });
});
