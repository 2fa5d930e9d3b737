import { describe, expect, it } from 'vitest';
import { toIso } from './time.ts';

describe('toIso', () => {
  it("rewrites pg's UTC text form exactly as Date would", () => {
    const forms = [
      '2026-11-07 00:22:25.223456+00',
      '2026-11-07 00:22:25.999999+00',
      '2026-11-07 00:22:25.5+00',
      '2026-11-07 00:22:25+00',
      '1970-01-01 00:00:00.000001+00',
      '2024-02-29 23:59:59.9995+00',
    ];
    for (const s of forms) expect(toIso(s)).toBe(new Date(s).toISOString());
    expect(toIso('2026-11-07 00:22:25.223456+00')).toBe('2026-11-07T00:22:25.223Z');
  });

  it('reads other offsets, ISO strings and Dates through Date', () => {
    expect(toIso('2026-11-07 02:22:25.1+02')).toBe('2026-11-07T00:22:25.100Z');
    expect(toIso('2026-11-07T00:22:25.223Z')).toBe('2026-11-07T00:22:25.223Z');
    expect(toIso(new Date(Date.UTC(2026, 10, 7, 0, 22, 25, 223)))).toBe('2026-11-07T00:22:25.223Z');
  });

  it('refuses what is not a time, as Date does', () => {
    expect(() => toIso('infinity')).toThrow(RangeError);
  });
});
