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

/** Each of the probe's engine runs stops past this (the transcode goes on at the ladder's CRFs). */
const PROBE_RUN_SECONDS = 120;

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
    // Each window's encodes in one engine run (its frames decoded once for every rung), then their
    // SSIM in another; each run works on one thread, so the two windows run side by side.
    const bounds = { signal: run.signal, stallSeconds: run.stallSeconds, timeoutSeconds: PROBE_RUN_SECONDS };
    const perWindow = await Promise.allSettled(
      windows.map(async (_, w) => {
        const plan = planProbeEncodes(o, w);
        await engine.run(plan.job, bounds);
        await engine.run(planProbeSsim(o, w, plan.encodes), bounds);
        return plan.encodes;
      }),
    );
    // Every run has ended (none left writing into the folder removed below) before a failure is told.
    const failed = perWindow.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const encodes: ProbeEncode[] = perWindow.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
    const measured = await Promise.all(
      encodes.map(async (encode) => ({ encode, bytes: (await stat(encode.file)).size, ssim: meanSsim(await readFile(ssimStats(encode), 'utf8')) })),
    );
    return chooseCrfs(o.rungs, measured);
  } finally {
    await rm(o.dir, { recursive: true, force: true });
  }
}

