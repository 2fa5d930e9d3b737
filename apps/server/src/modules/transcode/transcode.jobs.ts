import type { AppContext } from '../../context.ts';
import type { JobModule } from '../../jobs/worker.ts';
import { TRANSCODE_QUEUE } from './queue.ts';
import { transcodeHandler } from './transcode.job.ts';
import { PRUNE_QUEUE, pruneHandler } from './prune.job.ts';

/** Transcodes run in the long lane, so mails and notifications never wait behind one. */
export const transcodeJobs = (ctx: AppContext): JobModule => ({
  handlers: { [TRANSCODE_QUEUE]: transcodeHandler(ctx), [PRUNE_QUEUE]: pruneHandler(ctx) },
  longQueues: [TRANSCODE_QUEUE],
});
