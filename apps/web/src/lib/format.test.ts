import { afterEach, describe, expect, it } from 'vitest';
import {
  englishAgo,
  formatAxisDays,
  formatCount,
  formatDate,
  formatDateTime,
  formatDay,
  formatDuration,
  formatNumber,
  formatPercent,
  formatRelative,
  formatSize,
  formatWatchTime,
  localDay,
  plural,
} from './format.ts';
import { setLocale, t } from './i18n/i18n.ts';
import { initials, initialsAvatar } from './avatar.ts';

describe('formatCount', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1.00K'],
    [1234, '1.23K'],
    [9999, '10.00K'],
    [12_345, '12.3K'],
    [999_999, '1000.0K'],
    [1_000_000, '1.00M'],
    [15_500_000, '15.5M'],
    [2_000_000_000, '2.00B'],
    [123_400_000_000, '123.4B'],
  ])('%d -> %s', (n, s) => expect(formatCount(n)).toBe(s));
});

describe('formatSize', () => {
  // Decimal units, as the server's messages and the admin's quota form count; the spec's names and two decimals.
  it.each([
    [0, '0.00 B'],
    [512, '512.00 B'],
    [1500, '1.50 KB'],
    [999_999, '1.00 MB'],
    [3_000_000, '3.00 MB'],
    [8_300_000, '8.30 MB'],
    [1_250_000_000, '1.25 GB'],
    [2_048_000_000_000, '2.05 TB'],
  ])('%d -> %s', (n, s) => expect(formatSize(n)).toBe(s));
});

describe('formatDuration', () => {
  it.each([
    [0, '0:00'],
    [7, '0:07'],
    [59.9, '0:59'],
    [60, '1:00'],
    [605, '10:05'],
    [3600, '1:00:00'],
    [3725, '1:02:05'],
    [-3, '0:00'],
  ])('%d -> %s', (n, s) => expect(formatDuration(n)).toBe(s));
});

describe('formatRelative', () => {
  const now = Date.parse('2025-06-15T12:00:00Z');
  it.each([
    ['2025-06-15T12:00:00Z', 'just now'],
    ['2025-06-15T11:59:30Z', '30 seconds ago'],
    ['2025-06-15T11:59:00Z', '1 minute ago'],
    ['2025-06-15T10:00:00Z', '2 hours ago'],
    ['2025-06-14T12:00:00Z', '1 day ago'],
    ['2025-06-01T12:00:00Z', '2 weeks ago'],
    ['2025-03-15T12:00:00Z', '3 months ago'],
    ['2023-06-15T12:00:00Z', '2 years ago'],
  ])('%s -> %s', (d, s) => expect(formatRelative(d, now)).toBe(s));
  it('is empty for a bad date', () => expect(formatRelative('nope', now)).toBe(''));
  it('words English exactly as Intl does, for every unit and count it shows', () => {
    const intl = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
    const units: Intl.RelativeTimeFormatUnit[] = ['year', 'month', 'week', 'day', 'hour', 'minute', 'second'];
    for (const unit of units) for (let n = 1; n < 1000; n++) expect(englishAgo(n, unit)).toBe(intl.format(-n, unit));
    expect(englishAgo(1000, 'year')).toBeNull();
    expect(formatRelative('1000-06-15T12:00:00Z', now)).toBe(intl.format(-1025, 'year'));
  });
});

describe('formatDate', () => {
  it('formats yyyy-MM-dd in local time', () => {
    expect(formatDate(new Date(2024, 0, 5, 23, 30))).toBe('2024-01-05');
    expect(formatDate('garbage')).toBe('');
  });
});

describe('plural', () => {
  it('says reply/replies', () => {
    expect(plural(1, 'count.replies')).toBe('1 reply');
    expect(plural(2, 'count.replies')).toBe('2 replies');
    expect(plural(1500, 'count.views')).toBe('1.50K views');
  });
});

describe('per locale (ADR 021)', () => {
  afterEach(() => setLocale('en'));
  const nb = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

  it('abbreviates counts with the locale separator and units', () => {
    expect([1234, 12_345, 1_500_000, 2_000_000_000, 999].map((n) => nb(formatCount(n, 'fr')))).toEqual(['1,23 k', '12,3 k', '1,50 M', '2,00 Md', '999']);
    expect([1234, 1_500_000].map((n) => nb(formatCount(n, 'es')))).toEqual(['1,23 mil', '1,50 M']);
  });

  it('writes sizes in the locale units (French octets), decimal as in English', () => {
    expect([512, 1500, 3_120_000, 5e9].map((n) => nb(formatSize(n, 'fr')))).toEqual(['512,00 o', '1,50 ko', '3,12 Mo', '5,00 Go']);
    expect(nb(formatSize(3_000_000, 'es'))).toBe('3,00 MB');
    // No break inside a size: the number and its unit stay on one line.
    expect(formatSize(3_120_000, 'fr')).not.toContain(' ');
  });

  it('writes shares and watch time per locale', () => {
    expect([formatPercent(0.42, 'en'), nb(formatPercent(0.42, 'fr')), formatPercent(1, 'en')]).toEqual(['42%', '42 %', '100%']);
    expect([20, 720, 12_600].map((s) => formatWatchTime(s, 'en'))).toEqual(['20 sec', '12 min', '3.5 hr']);
    expect([20, 720, 12_600].map((s) => nb(formatWatchTime(s, 'fr')))).toEqual(['20 s', '12 min', '3,5 h']);
  });

  it('labels chart days short and localised, each naming its month, with the year only when they span two', () => {
    const days = ['2026-03-05', '2026-03-06', '2026-03-20', '2026-04-02'];
    expect(formatAxisDays(days, 'en')).toEqual(['Mar 5', 'Mar 6', 'Mar 20', 'Apr 2']);
    expect(formatAxisDays(days, 'fr').map(nb)).toEqual(['5 mars', '6 mars', '20 mars', '2 avr.']);
    expect(formatAxisDays(days, 'es').map(nb)).toEqual(['5 mar', '6 mar', '20 mar', '2 abr']);
    expect(formatAxisDays(['2025-12-31', '2026-01-01'], 'en')).toEqual(['Dec 31, 25', 'Jan 1, 26']);
    // No ISO date and no bare year on an axis.
    expect(formatAxisDays(days, 'fr').join(' ')).not.toMatch(/\d{4}|\//);
    expect([formatDay('2026-03-05', 'en'), nb(formatDay('2026-03-05', 'fr'))]).toEqual(['Mar 5, 2026', '5 mars 2026']);
  });

  it('keys days as yyyy-MM-dd in local time whatever the language', async () => {
    await setLocale('fr');
    expect(localDay(new Date(2024, 0, 5, 23, 30))).toBe('2024-01-05');
  });

  it('says relative times in the locale', () => {
    const now = Date.parse('2025-06-15T12:00:00Z');
    expect(formatRelative('2025-06-12T12:00:00Z', now, 'fr')).toBe('il y a 3 jours');
    expect(formatRelative('2025-06-15T11:00:00Z', now, 'es')).toBe('hace 1 hora');
    expect(formatRelative('2025-06-15T12:00:00Z', now, 'en')).toBe('just now');
  });

  it('writes dashboard dates day first in French and Spanish, yyyy-MM-dd in English', () => {
    const d = new Date(2024, 0, 5, 23, 30);
    expect(formatDate(d, 'fr')).toBe('05/01/2024');
    expect(formatDate(d, 'es')).toBe('05/01/2024');
    expect(formatDate(d, 'en')).toBe('2024-01-05');
    expect(formatDateTime(d, 'fr')).toBe('05/01/2024 23:30');
  });

  it('groups whole numbers per locale', () => {
    expect(formatNumber(1234567, 'en')).toBe('1,234,567');
    expect(nb(formatNumber(1234567, 'fr'))).toBe('1 234 567');
  });

  it('follows the current locale, with its plural rules', async () => {
    await setLocale('fr');
    expect(nb(plural(1500, 'count.views'))).toBe('1,50 k vues');
    expect(plural(1, 'count.views')).toBe('1 vue');
    // French: 0 takes the singular.
    expect(plural(0, 'count.replies')).toBe('0 réponse');
    expect(formatRelative(Date.now() - 2 * 3600_000)).toBe('il y a 2 heures');
    expect(t('time.justNow')).toBe("à l'instant");
    await setLocale('es');
    expect(plural(2, 'count.subscribers')).toBe('2 suscriptores');
  });

  it("counts comments: the spec's 'N Comments' in English, one comment singular", async () => {
    expect([0, 1, 2, 1500].map((n) => plural(n, 'comments.title'))).toEqual(['0 Comments', '1 Comment', '2 Comments', '1.50K Comments']);
    await setLocale('fr');
    expect([0, 1, 2].map((n) => plural(n, 'comments.title'))).toEqual(['0 commentaire', '1 commentaire', '2 commentaires']);
  });
});

describe('initials avatar', () => {
  it('takes the first letters of the first and last words', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('  grace brewster murray hopper ')).toBe('GH');
    expect(initials('plato')).toBe('P');
    expect(initials('')).toBe('?');
  });
  it('is a local blue SVG data URL with the initials, escaped', () => {
    const url = initialsAvatar('Ada <Lovelace>', 150);
    expect(url.startsWith('data:image/svg+xml')).toBe(true);
    const svg = decodeURIComponent(url.split(',')[1]!);
    expect(svg).toContain('width="150"');
    expect(svg).toContain('fill="#2563eb"');
    expect(svg).toContain('font-weight="700"');
    expect(svg).toContain('>A&lt;</text>');
    expect(svg).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
  });
});
