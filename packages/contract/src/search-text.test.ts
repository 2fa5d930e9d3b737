import { describe, expect, it } from 'vitest';
import { decodeOnceMore, SEARCH_TEXT_MAX, searchText } from './search-text.ts';

describe('search text', () => {
  it('decodes once more what is still percent-encoded, and leaves a % that encodes nothing as typed', () => {
    expect(decodeOnceMore('northern%20lights')).toBe('northern lights');
    expect(decodeOnceMore('caf%C3%A9%2Bcr%C3%A8me')).toBe('café+crème');
    // Once more only: what was encoded three times is still encoded once.
    expect(decodeOnceMore('a%2520b')).toBe('a%20b');
    expect(decodeOnceMore('100% sure, 50%off, %zz, %4')).toBe('100% sure, 50%off, %zz, %4');
    // Bytes that are not UTF-8 stay as they came.
    expect(decodeOnceMore('bad %FF%FE byte')).toBe('bad %FF%FE byte');
    expect(decodeOnceMore('plus+stays')).toBe('plus+stays');
  });

  it('folds whitespace and line breaks, and cuts long text at a word boundary', () => {
    expect(searchText.parse('  Northern%20lights%0A%0AFilmed%09in%0D%0ATroms%C3%B8  ')).toBe('Northern lights Filmed in Tromsø');
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join('\n');
    const cut = searchText.parse(encodeURIComponent(words));
    expect(cut.length).toBeLessThanOrEqual(SEARCH_TEXT_MAX);
    expect(cut.length).toBeGreaterThan(SEARCH_TEXT_MAX - 8);
    expect(words.replace(/\n/g, ' ').startsWith(`${cut} `)).toBe(true);
    // One word longer than the limit is cut in it; characters outside the BMP are not split.
    expect(Array.from(searchText.parse('😀'.repeat(SEARCH_TEXT_MAX + 5)))).toHaveLength(SEARCH_TEXT_MAX);
    expect(searchText.parse('%20%0A ')).toBe('');
  });

  it('refuses control characters, encoded or not, and an absurdly long parameter', () => {
    expect(searchText.safeParse('nul%00here').success).toBe(false);
    expect(searchText.safeParse('bell\u0007').success).toBe(false);
    expect(searchText.safeParse('x'.repeat(50_001)).success).toBe(false);
    expect(searchText.safeParse('x'.repeat(50_000)).success).toBe(true);
  });
});
