export interface ProgressUpdate {
  /** Seconds of output written so far. */
  outTimeSeconds: number;
  done: boolean;
}

/**
 * Incremental parser for `ffmpeg -progress pipe:1` (blocks of key=value lines, each block ending
 * with `progress=continue` or `progress=end`). Feed it stdout chunks; it returns the blocks completed.
 */
export class ProgressParser {
  private buffer = '';
  private outTimeUs = 0;

  push(chunk: string): ProgressUpdate[] {
    this.buffer += chunk;
    const lines = this.buffer.split('\n');
    this.buffer = lines.pop() ?? '';
    const updates: ProgressUpdate[] = [];
    for (const line of lines) {
      const eq = line.indexOf('=');
      if (eq < 0) continue;
      const key = line.slice(0, eq).trim();
      const value = line.slice(eq + 1).trim();
      // out_time_ms is in microseconds too (an old ffmpeg naming slip); prefer out_time_us.
      if (key === 'out_time_us' || (key === 'out_time_ms' && this.outTimeUs === 0)) {
        const n = Number(value);
        if (Number.isFinite(n) && n >= 0) this.outTimeUs = n;
      } else if (key === 'progress') {
        updates.push({ outTimeSeconds: this.outTimeUs / 1e6, done: value === 'end' });
      }
    }
    return updates;
  }
}

/** Fraction done in 0..0.99 while running (1 is written when the job finishes). */
export function progressFraction(outSeconds: number, durationSeconds: number): number {
  if (durationSeconds <= 0) return 0;
  return Math.min(0.99, Math.max(0, outSeconds / durationSeconds));
}
