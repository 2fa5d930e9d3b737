import type { AppContext } from '../../context.ts';
import type { JobModule } from '../../jobs/worker.ts';
import { ACCOUNT_FILES_QUEUE, accountFilesHandler } from './account-files.job.ts';

/** A deleted account's files go in batches, in the long lane. */
export const accountsJobs = (ctx: AppContext): JobModule => ({
  handlers: { [ACCOUNT_FILES_QUEUE]: accountFilesHandler(ctx) },
  longQueues: [ACCOUNT_FILES_QUEUE],
});
