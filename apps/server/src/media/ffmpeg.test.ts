import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateBinaries, MediaToolError, probe, runFfmpeg } from './ffmpeg.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-bin-'));
  for (const name of ['ffmpeg', 'ffprobe']) {
    await writeFile(path.join(dir, name), '#!/bin/sh\nexit 0\n');
    await chmod(path.join(dir, name), 0o755);
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('locateBinaries', () => {
  it('prefers FFMPEG_PATH / FFPROBE_PATH', () => {
    expect(locateBinaries({ ffmpegPath: '/opt/ff/ffmpeg', ffprobePath: '/opt/ff/ffprobe' }, dir)).toEqual({
      ffmpeg: '/opt/ff/ffmpeg',
      ffprobe: '/opt/ff/ffprobe',
    });
  });

  it('then looks on the PATH', () => {
    expect(locateBinaries({}, `/nonexistent${path.delimiter}${dir}`)).toEqual({
      ffmpeg: path.join(dir, 'ffmpeg'),
      ffprobe: path.join(dir, 'ffprobe'),
    });
  });

  it('falls back to the npm-installed binaries when the PATH has none', () => {
    const found = locateBinaries({}, '/nonexistent');
    expect(found.ffmpeg).toMatch(/@ffmpeg-installer\/.+\/ffmpeg$/);
    expect(found.ffprobe).toMatch(/@ffprobe-installer\/.+\/ffprobe$/);
  });
});

describe('running the tools', () => {
  it('turns a failing run into a MediaToolError with the tail of stderr', async () => {
    const bins = locateBinaries({});
    const file = path.join(dir, 'junk.mp4');
    await writeFile(file, 'junk');
    await expect(probe(bins, file)).rejects.toBeInstanceOf(MediaToolError);
    await expect(runFfmpeg(bins, ['-v', 'error', '-i', file, '-f', 'null', '-'], () => {})).rejects.toThrow(/ffmpeg exited with 1: .*Invalid data/);
  });

  it('reports a missing binary as a plain error (our fault, not the file)', async () => {
    const err = await probe({ ffmpeg: '/nope/ffmpeg', ffprobe: '/nope/ffprobe' }, 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(MediaToolError);
  });
});
