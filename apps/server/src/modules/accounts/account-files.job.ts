import type { AppContext } from '../../context.ts';
import { JobsRepository } from '../../jobs/jobs.repository.ts';
import type { JobHandler } from '../../jobs/worker.ts';

export const ACCOUNT_FILES_QUEUE = 'account-files';
/** Prefixes per job: a big account's files become several bounded jobs. */
export const FILES_PER_JOB = 200;

export interface AccountFilesPayload {
  /** Folders to remove whole: a video's media and original, the profile images, a tweet's image. */
  prefixes: string[];
}

/**
 * Removes a deleted account's stored files. Queued in the transaction that deletes the rows, so a
 * storage hiccup is retried by the worker instead of leaving orphans; every step is idempotent.
 * Once done, the job's row goes too: its payload names the account's files.
 */
export function accountFilesHandler(ctx: AppContext): JobHandler<AccountFilesPayload> {
  return {
    async run({ prefixes }, job) {
      for (const prefix of prefixes) await ctx.storage.deletePrefix(prefix);
      await new JobsRepository(ctx.db).forget(job.jobId);
      return { removed: prefixes.length };
    },
    async onFailed({ prefixes }, reason, log) {
      log.error({ prefixes: prefixes.length, reason }, 'files of a deleted account could not be removed');
    },
  };
}
