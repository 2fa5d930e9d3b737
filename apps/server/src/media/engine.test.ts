import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clipJob } from '@glimpse/media';
import { BundledEngine, createMediaEngine, MediaStoppedError, MediaToolError, SystemEngine } from './engine.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-engine-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const bundled = new BundledEngine();
/** Ten minutes of picture: long enough that only a bound or a cancel ends it within the test. */
const endless = () => clipJob({ out: path.join(dir, `long-${Math.random()}.mkv`), seconds: 600, width: 1280, height: 720, container: 'matroska', audio: false });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('media engine', () => {
  it('uses the bundled FFmpeg unless FFMPEG_PATH or MEDIA_ENGINE=system says otherwise', () => {
    expect(createMediaEngine({ engine: 'auto' }).name).toBe('bundled');
    expect(createMediaEngine({ engine: 'auto', ffmpegPath: '/opt/ff/ffmpeg' })).toMatchObject({ name: 'system', bins: { ffmpeg: '/opt/ff/ffmpeg', ffprobe: '/opt/ff/ffprobe' } });
    expect(createMediaEngine({ engine: 'system' }, dir)).toMatchObject({ name: 'system', bins: { ffmpeg: 'ffmpeg' } });
    expect(createMediaEngine({ engine: 'bundled', ffmpegPath: '/opt/ff/ffmpeg' }).name).toBe('bundled');
  });

  it('reports a current FFmpeg with everything the ladder needs; a system binary that does not run is named', async () => {
    const status = await bundled.check();
    expect(status.problems).toEqual([]);
    expect(Number(status.version.split('.')[0])).toBeGreaterThanOrEqual(7);
    const missing = await new SystemEngine({ ffmpeg: path.join(dir, 'no-such-ffmpeg'), ffprobe: 'x' }).check();
    expect(missing.problems[0]).toMatch(/no-such-ffmpeg does not run/);
  });

  it('stops a run when cancelled, killing the child within a second', async () => {
    const cancel = new AbortController();
    let pid = 0;
    const run = bundled.run(endless(), { signal: cancel.signal, onProgress: () => void (pid ||= findRunner()) });
    // Until the child has reported progress (a busy machine may take more than a moment to start it).
    for (let i = 0; i < 200 && pid === 0; i++) await new Promise((r) => setTimeout(r, 100));
    const t0 = Date.now();
    cancel.abort();
    await expect(run).rejects.toThrow(MediaStoppedError);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid)).toBe(false);
  });

  it('stops a run past its time limit, and one that makes no progress', async () => {
    await expect(bundled.run(endless(), { timeoutSeconds: 2 })).rejects.toThrow('took longer than 2 s');
    // A binary that says nothing at all: the stall watch ends it.
    const silent = path.join(dir, 'silent-ffmpeg');
    await writeFile(silent, '#!/bin/sh\nexec sleep 60\n');
    await chmod(silent, 0o755);
    const t0 = Date.now();
    await expect(new SystemEngine({ ffmpeg: silent, ffprobe: silent }).run(endless(), { stallSeconds: 1 })).rejects.toThrow('made no progress for 1 s');
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('probes a file named by a promise once it resolves, the child started before; a rejected promise ends the child', async () => {
    const clip = path.join(dir, 'later.mp4');
    let name!: (file: string) => void;
    const probing = bundled.probe(new Promise<string>((resolve) => (name = resolve)));
    // The child is up and waiting on its stdin while the file does not exist yet.
    const pid = await waitForRunner();
    // It runs the runner compiled once (an .mjs), not tsx compiling it at every start.
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    expect(argv.some((a) => /av-runner-[0-9a-f]{16}\.mjs$/.test(a))).toBe(true);
    expect(argv).not.toContain('tsx');
    await bundled.run(clipJob({ out: clip, seconds: 1, width: 160, height: 90, fps: 10, container: 'mp4', audio: false }));
    name(clip);
    const probe = await probing;
    expect(probe.streams?.find((s) => s.codec_type === 'video')).toMatchObject({ width: 160, height: 90 });

    let fail!: (err: Error) => void;
    const stopped = bundled.probe(new Promise<string>((_, reject) => (fail = reject)));
    const waiting = await waitForRunner();
    fail(new Error('the join failed'));
    await expect(stopped).rejects.toThrow(MediaStoppedError);
    expect(isAlive(waiting)).toBe(false);
  });

  it('takes a request on an engine started ahead, its clocks starting then; a cancelled one ends its child', async () => {
    const clip = path.join(dir, 'prepared.mp4');
    const ahead = bundled.prepare();
    const pid = await waitForRunner();
    // It has waited longer than the run may take: the limit counts from the request.
    await sleep(2500);
    await ahead.run(clipJob({ out: clip, seconds: 1, width: 160, height: 90, fps: 10, container: 'mp4', audio: false }), { timeoutSeconds: 2 });
    expect(isAlive(pid)).toBe(false);
    const probe = await bundled.prepare().probe(clip);
    expect(probe.streams?.find((s) => s.codec_type === 'video')).toMatchObject({ width: 160, height: 90 });

    const unused = bundled.prepare();
    const idle = await waitForRunner();
    unused.cancel();
    for (let i = 0; i < 40 && isAlive(idle); i++) await sleep(50);
    expect(isAlive(idle)).toBe(false);
  });

  it('reads a window of an input: from the second it names, for as long as it says, its first frame at time 0', async () => {
    // 10 fps with a keyframe every 3 s: the window starts between two, so frames before it are decoded and dropped.
    const source = path.join(dir, 'window-source.mp4');
    await bundled.run(clipJob({ out: source, seconds: 8, width: 160, height: 90, fps: 10, container: 'mp4', audio: false, video: { codec: 'libx264', options: { preset: 'ultrafast', g: '30' } } }));
    const out = path.join(dir, 'window.mp4');
    const { outSeconds } = await bundled.run({
      inputs: [{ url: source, seekSeconds: 4.5, durationSeconds: 2 }],
      graph: '[0:v]null[v]',
      outputs: [{ url: out, format: 'mp4', streams: [{ kind: 'video', label: 'v', codec: 'libx264', fps: '10', options: { preset: 'ultrafast' } }] }],
    });
    expect(outSeconds).toBeCloseTo(1.9, 5);
    const probe = await bundled.probe(out);
    // 4.5 s to 6.4 s: 20 frames (from the keyframe at 3 s it would be 35).
    expect(probe.streams?.[0]).toMatchObject({ nb_frames: '20' });
  });

  it('tells a file it cannot read (MediaToolError) from its own failures', async () => {
    const junk = path.join(dir, 'junk.mp4');
    await writeFile(junk, 'not media');
    await expect(bundled.probe(junk)).rejects.toThrow(MediaToolError);
  });
});

/** The pid of the av-runner child this process starts, once it is up (a busy machine may take a while). */
async function waitForRunner(): Promise<number> {
  let pid = 0;
  for (let i = 0; i < 200 && pid === 0; i++) {
    await sleep(50);
    pid = findRunner();
  }
  expect(pid).toBeGreaterThan(0);
  return pid;
}

/** The pid of a running av-runner child of this process, from /proc. */
function findRunner(): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (Number(stat.split(') ')[1]!.split(' ')[1]) === process.pid && cmd.includes('av-runner')) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return 0;
}
