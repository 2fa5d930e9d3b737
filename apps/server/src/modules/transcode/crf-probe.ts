import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import {
  chooseCrfs,
  graphSafePath,
  meanSsim,
  planProbeEncodes,
  planProbeSsim,
  probeWindows,
  ssimStats,
  type CrfChoice,
  type CrfProbeInput,
  type ProbeEncode,
  type Rendition,
} from '@glimpse/media';
import type { MediaEngine } from '../../media/engine.ts';

/**
 * A video's CRF per rung, from a few short windows encoded at each rung's CRF and one step up
 * (@glimpse/media crf-probe.ts; ADR 025, sixteenth round). Null when the video is not probed:
 * probing off, a short video, or a work folder whose path a filter graph cannot carry.
 */
export async function probeCrfs(
  engine: MediaEngine,
  o: CrfProbeInput,
  run: { signal: AbortSignal; stallSeconds: number },
): Promise<{ rungs: Rendition[]; choices: CrfChoice[] } | null> {
  const windows = probeWindows(o.probe.durationSeconds);
  if (!o.settings.crfProbe || windows.length === 0 || o.rungs.length === 0 || !graphSafePath(o.dir)) return null;
  await mkdir(o.dir, { recursive: true });
  try {
    // Each window's encodes in one job (a window's frames are decoded once for every rung), then every SSIM in one.
    const bounds = { signal: run.signal, stallSeconds: run.stallSeconds, timeoutSeconds: 300 };
    const encodes: ProbeEncode[] = [];
    for (let w = 0; w < windows.length; w += 1) {
      const plan = planProbeEncodes(o, w);
      await engine.run(plan.job, bounds);
      encodes.push(...plan.encodes);
    }
    await engine.run(planProbeSsim(o, encodes), bounds);
    const measured = await Promise.all(
      encodes.map(async (encode) => ({ encode, bytes: (await stat(encode.file)).size, ssim: meanSsim(await readFile(ssimStats(encode), 'utf8')) })),
    );
    return chooseCrfs(o.rungs, measured);
  } finally {
    await rm(o.dir, { recursive: true, force: true });
  }
}
