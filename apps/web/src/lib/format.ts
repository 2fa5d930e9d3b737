import { getLocale, t, type Locale, type MessageKey } from './i18n/i18n.ts';

/**
 * Display formats of spec §9, in the current locale (ADR 021 and its 2026-12 addendum). English keeps
 * the spec's exact shapes ('1.23K', '1.50 KB', 'yyyy-MM-dd'); French and Spanish use their own
 * separators and units. Every number, size, share and date shown goes through here: one page never
 * writes a number two ways.
 */

// Per locale: count suffixes (thousand, million, billion).
const COUNT_SUFFIXES: Record<Locale, [string, string, string]> = { en: ['K', 'M', 'B'], fr: ['\u00a0k', '\u00a0M', '\u00a0Md'], es: ['\u00a0mil', '\u00a0M', '\u00a0mil\u00a0M'] };

/** One Intl formatter per locale and options: making one is the slow part. */
function memo<O, F>(make: (locale: Locale, options: O) => F): (locale: Locale, options: O) => F {
  const made = new Map<string, F>();
  return (locale, options) => {
    const id = `${locale}:${JSON.stringify(options)}`;
    let f = made.get(id);
    if (!f) {
      f = make(locale, options);
      made.set(id, f);
    }
    return f;
  };
}
const numberFormat = memo((locale, options: Intl.NumberFormatOptions) => new Intl.NumberFormat(locale, options));
const dateFormat = memo((locale, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, options));

/** `v` with exactly `digits` decimals, in the locale's notation (English: plain toFixed, as the spec shows). */
function fixed(v: number, digits: number, locale: Locale): string {
  if (locale === 'en') return v.toFixed(digits);
  return numberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }).format(v);
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

// Decimal units (1 KB = 1000 bytes), as the server's messages and the admin's quota form count.
const SIZE_UNITS: [number, string][] = [
  [1e12, 'terabyte'],
  [1e9, 'gigabyte'],
  [1e6, 'megabyte'],
  [1e3, 'kilobyte'],
  [1, 'byte'],
];
// The spec's English unit names; the other languages take Intl's (fr 'octet', 'ko', 'Mo'; es 'kB').
const SPEC_UNITS: Record<string, string> = { byte: 'B', kilobyte: 'KB', megabyte: 'MB', gigabyte: 'GB', terabyte: 'TB' };

/** Bytes in decimal units with two decimals (spec §9): '512.00 B', '1.50 KB', '3.00 MB'; fr '3,00 Mo'. */
export function formatSize(bytes: number, locale: Locale = getLocale()): string {
  const b = Math.max(0, bytes || 0);
  // The largest unit that reads 1.00 or more once rounded (999,999 bytes is '1.00 MB', not '1000.00 KB').
  const [size, unit] = SIZE_UNITS.find(([size]) => Math.round((b / size) * 100) >= 100) ?? SIZE_UNITS.at(-1)!;
  const parts = numberFormat(locale, { style: 'unit', unit, unitDisplay: 'short', minimumFractionDigits: 2, maximumFractionDigits: 2 }).formatToParts(b / size);
  return parts.map((p) => (locale === 'en' && p.type === 'unit' ? SPEC_UNITS[unit] : p.value)).join('');
}

/** A share (0.42) as a whole percentage in the locale's way: '42%', fr '42 %'. */
export function formatPercent(share: number, locale: Locale = getLocale()): string {
  return numberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(share);
}

/** Time spent at the scale it has: '20 sec', '12 min', '3.5 hr' (fr '20 s', '12 min', '3,5 h'). */
export function formatWatchTime(seconds: number, locale: Locale = getLocale()): string {
  const s = Math.max(0, Math.round(seconds || 0));
  const [value, unit, digits] = s < 60 ? [s, 'second', 0] : s < 3600 ? [Math.floor(s / 60), 'minute', 0] : [s / 3600, 'hour', 1];
  return numberFormat(locale, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: digits }).format(value);
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

const pad = (x: number) => String(x).padStart(2, '0');

/** The local calendar day of a moment as yyyy-MM-dd, whatever the language: a key to group and sort by. */
export function localDay(date: string | number | Date): string {
  const d = new Date(date);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** yyyy-MM-dd in local time (dashboard dates, spec §9); fr/es their short numeric date (dd/mm/yyyy). */
export function formatDate(date: string | number | Date, locale: Locale = getLocale()): string {
  const d = new Date(date);
  if (Number.isNaN(d.getTime())) return '';
  if (locale !== 'en') return dateFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
  return localDay(d);
}

// A calendar day ('yyyy-MM-dd') is read at UTC midnight and written in UTC, so no time zone moves it.
const dayAt = (day: string) => new Date(`${day}T00:00:00Z`);

/**
 * The x labels of a chart of days (each 'yyyy-MM-dd'): short and localised, every one naming its
 * month ('Mar 5'; fr '5 mars'; es '5 mar'), since the chart shows only as many as fit
 * (AxisLabels) and any of them may stand alone; a two-digit year ('Dec 28, 25') when the days
 * span two years.
 */
export function formatAxisDays(days: readonly string[], locale: Locale = getLocale()): string[] {
  const years = new Set(days.map((d) => d.slice(0, 4)));
  const short = dateFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC', ...(years.size > 1 ? { year: '2-digit' } : {}) });
  return days.map((d) => short.format(dayAt(d)));
}

/** A calendar day ('yyyy-MM-dd') in full, for a chart's table and tooltips: 'Mar 5, 2026', fr '5 mars 2026'. */
export function formatDay(day: string, locale: Locale = getLocale()): string {
  return dateFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(dayAt(day));
}

/** yyyy-MM-dd HH:mm in local time (a scheduled publication). */
export function formatDateTime(date: string | number | Date, locale: Locale = getLocale()): string {
  const d = new Date(date);
  if (Number.isNaN(d.getTime())) return '';
  return `${formatDate(d, locale)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A number with the locale's grouping and decimal sign (1,234.5 / 1 234,5 / 1234,5). */
export function formatNumber(n: number, locale: Locale = getLocale()): string {
  return numberFormat(locale, {}).format(n);
}

/**
 * A counted noun from the catalogue: `key` is an ICU plural message over `count` (the number,
 * choosing the form) and `n` (the abbreviated count shown): '1 reply', '1.50K views', '2 vues'.
 */
export function plural(n: number, key: MessageKey): string {
  return t(key, { count: n, n: formatCount(n) });
}
