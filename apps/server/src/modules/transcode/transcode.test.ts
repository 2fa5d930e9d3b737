import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { engine, freshDatabase } from '../../../test/harness.ts';
import { workerCrashScenario } from '../../../test/worker-crash.ts';

let dataDir: string;
let fresh: Awaited<ReturnType<typeof freshDatabase>> | undefined;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-kill-'));
  fresh = engine === 'pg' ? await freshDatabase() : undefined;
  await fresh?.database.close();
});
afterAll(async () => {
  await fresh?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('worker crash', () => {
  it('a worker process killed mid-transcode leaves the job to the next worker, which completes it', () => workerCrashScenario(dataDir, fresh?.url), 120_000);
});
