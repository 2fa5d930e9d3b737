/** Display formats of spec §9. */

/** 999 -> '999', 1234 -> '1.23K', 12345 -> '12.3K', 1.5e6 -> '1.50M', 2e9 -> '2.00B'. */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return '0';
  const sign = n < 0 ? '-' : '';
  const abs = Math.abs(n);
  const units: [number, string][] = [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ];
  for (const [size, suffix] of units) {
    if (abs >= size) {
      const v = abs / size;
      return `${sign}${v.toFixed(v < 10 ? 2 : 1)}${suffix}`;
    }
  }
  return `${sign}${Math.round(abs)}`;
}

/** Bytes with two decimals: '512.00 B', '1.50 KB', '3.00 MB', '1.25 GB'. */
export function formatSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let v = Math.max(0, bytes);
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(2)} ${units[i]}`;
}

/** Seconds as h:mm:ss or m:ss; under a minute the seconds as '0:ss' so a badge never reads as a bare number. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds || 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const pad = (x: number) => String(x).padStart(2, '0');
  if (h > 0) return `${h}:${pad(m)}:${pad(sec)}`;
  if (m > 0) return `${m}:${pad(sec)}`;
  return `0:${pad(sec)}`;
}

const RELATIVE_STEPS: [number, string][] = [
  [365 * 24 * 3600, 'year'],
  [30 * 24 * 3600, 'month'],
  [7 * 24 * 3600, 'week'],
  [24 * 3600, 'day'],
  [3600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
];

/** '3 days ago', '1 hour ago', 'just now'. */
export function formatRelative(date: string | number | Date, now: number = Date.now()): string {
  const then = new Date(date).getTime();
  if (Number.isNaN(then)) return '';
  const seconds = Math.floor((now - then) / 1000);
  if (seconds < 1) return 'just now';
  for (const [size, unit] of RELATIVE_STEPS) {
    if (seconds >= size) {
      const n = Math.floor(seconds / size);
      return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
    }
  }
  return 'just now';
}

/** yyyy-MM-dd in local time (dashboard dates). */
export function formatDate(date: string | number | Date): string {
  const d = new Date(date);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (x: number) => String(x).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** 'N reply' / 'N replies', '1 view' / '2 views'. */
export function plural(n: number, one: string, many: string = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
