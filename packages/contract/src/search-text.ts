import { z } from 'zod';
import { CONTROL_CHARACTERS_MESSAGE, hasControlCharacters } from './text.ts';

/** What a search looks for at most, in characters after decoding: longer text is cut there. */
export const SEARCH_TEXT_MAX = 200;
/**
 * The longest `query` parameter taken (as received). A video's title and description (5,101
 * characters), encoded twice, can be nine times that; Node refuses a request line past 16 KB anyway.
 */
const SEARCH_PARAM_MAX = 50_000;

/** A run of percent-encoded bytes. */
const ENCODED_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/**
 * Decodes once more what is still percent-encoded: a spec client runs encodeURIComponent and its
 * HTTP library encodes the result again (`northern%2520lights`), and the site the spec describes
 * decodes twice. A `%` not followed by two hex digits, or a run of bytes that is not UTF-8, stays
 * as it is, so "100%" and "50%off" are searched as typed.
 */
export function decodeOnceMore(text: string): string {
  return text.replace(ENCODED_RUN, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** At most `max` characters (code points), without a word cut in two when a space comes earlier. */
function cut(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = chars.slice(0, max).join('');
  const space = head.lastIndexOf(' ');
  return chars[max] === ' ' || space <= 0 ? head : head.slice(0, space);
}

/**
 * The `query` of GET /videos, for every search type. It may be a person's words or an API query
 * built from a video's own title and description (a spec client's related videos: long, with line
 * breaks): decoded once more, whitespace folded to single spaces, cut to SEARCH_TEXT_MAX. Only
 * control characters other than whitespace are refused (400).
 */
export const searchText = z
  .string()
  .max(SEARCH_PARAM_MAX, `query must be at most ${SEARCH_PARAM_MAX} characters`)
  .transform(decodeOnceMore)
  .refine((s) => !hasControlCharacters(s), `query ${CONTROL_CHARACTERS_MESSAGE}`)
  .transform((s) => cut(s.replace(/\s+/g, ' ').trim(), SEARCH_TEXT_MAX));
