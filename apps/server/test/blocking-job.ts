import type { JobHandler } from '../src/jobs/worker.ts';

export const BLOCKING_QUEUE = 'blocking';

/** A job that runs until its signal is aborted, then rejects with the signal's reason. */
export const blockingHandler: JobHandler<object> = {
  run: (_payload, job) =>
    new Promise((_resolve, reject) => {
      job.signal.addEventListener('abort', () => reject(job.signal.reason as Error), { once: true });
      job.log.info({}, 'blocking job waits for its signal');
    }),
  onFailed: async () => {},
};
