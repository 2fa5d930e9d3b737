import { z } from 'zod';

/**
 * NUL and the other C0 controls except tab, line feed and carriage return; DEL; the C1 controls.
 * No text field takes them (PostgreSQL refuses NUL outright): the server answers 400 for any
 * string that carries one, wherever it is in the request.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
export const hasControlCharacters = (s: string): boolean => CONTROL_CHARACTER.test(s);
export const CONTROL_CHARACTERS_MESSAGE = 'must not contain control characters';

/** No control character at all, and no line or paragraph separator: one line. */
// eslint-disable-next-line no-control-regex -- as above
const ONE_LINE = /^[^\u0000-\u001F\u007F-\u009F\u2028\u2029]*$/;
export const ONE_LINE_MESSAGE = 'Use one line of text without control characters';

/**
 * A trimmed one-line string (names, titles, search text). Multi-line fields (descriptions,
 * comments, tweets) stay plain strings: they keep tabs and line breaks.
 */
export const oneLine = (params?: Parameters<typeof z.string>[0]) => z.string(params).trim().regex(ONE_LINE, ONE_LINE_MESSAGE);
