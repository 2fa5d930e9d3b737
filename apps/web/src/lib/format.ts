import { getLocale, t, type Locale, type MessageKey } from './i18n/i18n.ts';

/**
 * Display formats of spec §9, in the current locale (ADR 021). English keeps the spec's exact
 * shapes ('1.23K', '1.50 KB', 'yyyy-MM-dd'); French and Spanish use their own separators and units.
 */

// Per locale: count suffixes (thousand, million, billion) and byte units.
const COUNT_SUFFIXES: Record<Locale, [string, string, string]> = { en: ['K', 'M', 'B'], fr: ['\u00a0k', '\u00a0M', '\u00a0Md'], es: ['\u00a0mil', '\u00a0M', '\u00a0mil\u00a0M'] };
const SIZE_UNITS: Record<Locale, string[]> = { en: ['B', 'KB', 'MB', 'GB'], fr: ['o', 'Ko', 'Mo', 'Go'], es: ['B', 'KB', 'MB', 'GB'] };

const fixedFormats = new Map<string, Intl.NumberFormat>();
/** `v` with exactly `digits` decimals, in the locale's notation (English: plain toFixed, as the spec shows). */
function fixed(v: number, digits: number, locale: Locale): string {
  if (locale === 'en') return v.toFixed(digits);
  const id = `${locale}:${digits}`;
  let f = fixedFormats.get(id);
  if (!f) {
    f = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });
    fixedFormats.set(id, f);
  }
  return f.format(v);
}

/** 999 -> '999', 1234 -> '1.23K', 12345 -> '12.3K', 1.5e6 -> '1.50M', 2e9 -> '2.00B'. */
export function formatCount(n: number, locale: Locale = getLocale()): string {
  if (!Number.isFinite(n)) return '0';
  const sign = n < 0 ? '-' : '';
  const abs = Math.abs(n);
  const [k, m, b] = COUNT_SUFFIXES[locale];
  const units: [number, string][] = [
    [1e9, b],
    [1e6, m],
    [1e3, k],
  ];
  for (const [size, suffix] of units) {
    if (abs >= size) {
      const v = abs / size;
      return `${sign}${fixed(v, v < 10 ? 2 : 1, locale)}${suffix}`;
    }
  }
  return `${sign}${Math.round(abs)}`;
}

/** Bytes with two decimals: '512.00 B', '1.50 KB', '3.00 MB', '1.25 GB'. */
export function formatSize(bytes: number, locale: Locale = getLocale()): string {
  const units = SIZE_UNITS[locale];
  let v = Math.max(0, bytes);
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  // A no-break space keeps '1,50 Mo' on one line; English keeps the spec's plain space.
  return `${fixed(v, 2, locale)}${locale === 'en' ? ' ' : '\u00a0'}${units[i]}`;
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

const RELATIVE_STEPS: [number, Intl.RelativeTimeFormatUnit][] = [
  [365 * 24 * 3600, 'year'],
  [30 * 24 * 3600, 'month'],
  [7 * 24 * 3600, 'week'],
  [24 * 3600, 'day'],
  [3600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
];

const relativeFormats = new Map<Locale, Intl.RelativeTimeFormat>();

/**
 * `count` units ago, worded as English Intl.RelativeTimeFormat words it ('1 day ago', '3 days ago'),
 * without Intl's relative-time data: loading it was the largest single cost (about 20 ms on a phone)
 * of the first screen's render. From 1,000 on Intl groups digits: null, and Intl answers.
 */
export const englishAgo = (count: number, unit: Intl.RelativeTimeFormatUnit): string | null =>
  count < 1000 ? `${count} ${unit}${count === 1 ? '' : 's'} ago` : null;

/** '3 days ago', '1 hour ago', 'just now' (fr 'il y a 3 jours', es 'hace 3 días'). */
export function formatRelative(date: string | number | Date, now: number = Date.now(), locale: Locale = getLocale()): string {
  const then = new Date(date).getTime();
  if (Number.isNaN(then)) return '';
  const seconds = Math.floor((now - then) / 1000);
  const step = RELATIVE_STEPS.find(([size]) => seconds >= size);
  if (!step) return t('time.justNow');
  const [size, unit] = step;
  const count = Math.floor(seconds / size);
  const english = locale === 'en' ? englishAgo(count, unit) : null;
  if (english) return english;
  let f = relativeFormats.get(locale);
  if (!f) {
    f = new Intl.RelativeTimeFormat(locale, { numeric: 'always' });
    relativeFormats.set(locale, f);
  }
  return f.format(-count, unit);
}

/** yyyy-MM-dd in local time (dashboard dates, spec §9); fr/es their short numeric date (dd/mm/yyyy). */
export function formatDate(date: string | number | Date, locale: Locale = getLocale()): string {
  const d = new Date(date);
  if (Number.isNaN(d.getTime())) return '';
  if (locale !== 'en') return new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
  const pad = (x: number) => String(x).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** yyyy-MM-dd HH:mm in local time (a scheduled publication). */
export function formatDateTime(date: string | number | Date, locale: Locale = getLocale()): string {
  const d = new Date(date);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (x: number) => String(x).padStart(2, '0');
  return `${formatDate(d, locale)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A whole number with the locale's grouping (1,234 / 1 234 / 1234). */
export function formatNumber(n: number, locale: Locale = getLocale()): string {
  return new Intl.NumberFormat(locale).format(n);
}

/**
 * A counted noun from the catalogue: `key` is an ICU plural message over `count` (the number,
 * choosing the form) and `n` (the abbreviated count shown): '1 reply', '1.50K views', '2 vues'.
 */
export function plural(n: number, key: MessageKey): string {
  return t(key, { count: n, n: formatCount(n) });
}
