import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildProbeArgs, parseProbe, ProgressParser, type ProbeResult, type ProgressUpdate } from '@glimpse/media';
import type { Config } from '../config.ts';

export interface MediaBinaries {
  ffmpeg: string;
  ffprobe: string;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string, envPath = process.env.PATH ?? ''): string | undefined {
  return envPath
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, name))
    .find(isExecutable);
}

const require = createRequire(import.meta.url);

/** The npm-shipped binaries: the last resort, so a fresh machine needs no install. */
function installerPath(pkg: '@ffmpeg-installer/ffmpeg' | '@ffprobe-installer/ffprobe'): string | undefined {
  try {
    const p = (require(pkg) as { path?: string }).path;
    return p && isExecutable(p) ? p : undefined;
  } catch {
    return undefined;
  }
}

/** FFMPEG_PATH/FFPROBE_PATH, else the PATH, else the @ffmpeg-installer / @ffprobe-installer binaries. */
export function locateBinaries(config: Pick<Config, 'ffmpegPath' | 'ffprobePath'>, envPath?: string): MediaBinaries {
  const ffmpeg = config.ffmpegPath ?? onPath('ffmpeg', envPath) ?? installerPath('@ffmpeg-installer/ffmpeg');
  const ffprobe = config.ffprobePath ?? onPath('ffprobe', envPath) ?? installerPath('@ffprobe-installer/ffprobe');
  if (!ffmpeg || !ffprobe) throw new Error('ffmpeg/ffprobe not found: set FFMPEG_PATH and FFPROBE_PATH');
  return { ffmpeg, ffprobe };
}

export class MediaToolError extends Error {}

interface RunOptions {
  onStdout?: (text: string) => void;
  signal?: AbortSignal;
}

/** Runs a binary; resolves with stdout, rejects with the tail of stderr on a non-zero exit. */
function run(bin: string, args: string[], opts: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], signal: opts.signal });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (opts.onStdout) opts.onStdout(d);
      else stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr = (stderr + d).slice(-4000);
    });
    // Not a MediaToolError: a missing binary is our fault, not the file's.
    child.on('error', (err) => reject(new Error(`${path.basename(bin)} could not run: ${err.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) resolve(stdout);
      else reject(new MediaToolError(`${path.basename(bin)} exited with ${code ?? signal}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

export async function probe(bins: MediaBinaries, file: string): Promise<ProbeResult> {
  return parseProbe(await run(bins.ffprobe, buildProbeArgs(file)));
}

/** Runs ffmpeg with `-progress pipe:1` in its arguments, reporting each progress block. */
export async function runFfmpeg(
  bins: MediaBinaries,
  args: string[],
  onProgress: (u: ProgressUpdate) => void,
  signal?: AbortSignal,
): Promise<void> {
  const parser = new ProgressParser();
  await run(bins.ffmpeg, args, { onStdout: (t) => parser.push(t).forEach(onProgress), signal });
}
