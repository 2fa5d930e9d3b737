import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.ts';
import { makeClip, TEST_ENV } from '../../test/harness.ts';
import { BACKGROUND_NICENESS } from './engine.ts';
import { MediaService, PROBE_AHEAD_EVERY_MS, PROBE_READY_MS, PROBES_AHEAD } from './media-service.ts';

let dir: string;
let clip: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-media-service-'));
  clip = await makeClip(path.join(dir, 'clip.mp4'), { seconds: 1, width: 160, height: 90, fps: 10, audio: false });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('probes started ahead of their file (the last chunk of an upload)', () => {
  it('starts the engine at once and answers for the file given later, as inspect does', async () => {
    const media = new MediaService(loadConfig({ ...TEST_ENV, DATA_DIR: dir }).media);
    const probes = vi.spyOn(media.engine, 'probe');
    const ahead = media.probeAhead();
    expect(probes).toHaveBeenCalledTimes(1);
    let give!: (file: string) => void;
    const result = ahead.inspect(new Promise<string>((resolve) => (give = resolve)), 60);
    give(clip);
    expect(await result).toMatchObject({ width: 160, height: 90 });
    expect(await media.inspect(clip, 60)).toEqual(await result);
    expect(probes).toHaveBeenCalledTimes(2);
    // The engine's own limit still applies to a file given later.
    await expect(media.probeAhead().inspect(clip, 0.5)).rejects.toThrow(/long/);
  });

  it('waits at a lower CPU priority than the server, so that its start yields to the chunks under way', async () => {
    const media = new MediaService(loadConfig({ ...TEST_ENV, DATA_DIR: dir }).media);
    const ahead = media.probeAhead();
    try {
      // The child's niceness, read by ps once it is spawned (after the runner is ready).
      const niceness = async () => {
        const { stdout } = await promisify(execFile)('ps', ['-o', 'ni=,args=', '--ppid', String(process.pid)]).catch(() => ({ stdout: '' }));
        const line = stdout.split('\n').find((l) => l.includes('av-runner'));
        return line === undefined ? undefined : Number(line.trim().split(/\s+/)[0]);
      };
      await expect.poll(niceness, { timeout: 20_000 }).toBe(Math.min(19, os.getPriority() + BACKGROUND_NICENESS));
      expect(await ahead.inspect(clip, 60)).toMatchObject({ width: 160 });
    } finally {
      ahead.cancel();
    }
  });

  it(`keeps at most ${PROBES_AHEAD} waiting; the others start with their file, and a cancelled one frees its place`, async () => {
    const media = new MediaService(loadConfig({ ...TEST_ENV, DATA_DIR: dir }).media, 0);
    const probes = vi.spyOn(media.engine, 'probe');
    const waiting = Array.from({ length: PROBES_AHEAD }, () => media.probeAhead());
    const extra = media.probeAhead();
    expect(probes).toHaveBeenCalledTimes(PROBES_AHEAD);
    expect(await extra.inspect(clip, 60)).toMatchObject({ width: 160 });
    expect(probes).toHaveBeenCalledTimes(PROBES_AHEAD + 1);
    for (const w of waiting) w.cancel();
    // The cancelled children end; then a new probe ahead starts one again.
    await vi.waitFor(
      () => {
        const before = probes.mock.calls.length;
        media.probeAhead().cancel();
        expect(probes.mock.calls.length).toBe(before + 1);
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it(`starts at most one ahead per ${PROBE_AHEAD_EVERY_MS} ms: requests asking for more cost a child start each`, async () => {
    const media = new MediaService(loadConfig({ ...TEST_ENV, DATA_DIR: dir }).media);
    const probes = vi.spyOn(media.engine, 'probe');
    const first = media.probeAhead();
    const second = media.probeAhead();
    media.keepProbeReady();
    expect(probes).toHaveBeenCalledTimes(1);
    // The second starts with its file, and answers the same.
    expect(await second.inspect(clip, 60)).toMatchObject({ width: 160 });
    expect(probes).toHaveBeenCalledTimes(2);
    first.cancel();
  });
});

describe('a probe kept ready while the chunks of an upload arrive', () => {
  it('is started once however often it is asked for, and the next probe ahead is that one', async () => {
    const media = new MediaService(loadConfig({ ...TEST_ENV, DATA_DIR: dir }).media, 0);
    const probes = vi.spyOn(media.engine, 'probe');
    media.keepProbeReady();
    media.keepProbeReady();
    media.keepProbeReady();
    expect(probes).toHaveBeenCalledTimes(1);
    const probe = media.probeAhead();
    expect(probes).toHaveBeenCalledTimes(1);
    expect(await probe.inspect(clip, 60)).toMatchObject({ width: 160, height: 90 });
    // Taken: the next chunk keeps a new one ready.
    media.keepProbeReady();
    expect(probes).toHaveBeenCalledTimes(2);
    media.probeAhead().cancel();
  });

  it('keeps no process alive while it waits: a process that only kept one ready ends at once', async () => {
    const script = `
      import { MediaService } from './src/media/media-service.ts';
      import { loadConfig } from './src/config.ts';
      new MediaService(loadConfig({ ...process.env, DATA_DIR: ${JSON.stringify(dir)} }).media).keepProbeReady();
    `;
    const started = Date.now();
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: path.resolve(import.meta.dirname, '../..'), env: { ...process.env, ...TEST_ENV } }, (err) =>
        err ? reject(err) : resolve(),
      ),
    );
    // Well before the ready probe's own end: its child did not hold the process open.
    expect(Date.now() - started).toBeLessThan(PROBE_READY_MS);
  }, PROBE_READY_MS + 10_000);
});
