/**
 * The watched-words matcher: case-insensitive, whole words and phrases at Unicode word boundaries
 * ("ass" does not match "class"). Every word is escaped, so no user text is ever compiled as a
 * pattern: the compiled expression is an alternation of literals (and `\s+` between a phrase's
 * words), which the regex engine runs in time linear in the text for a given list.
 */
const WORD_CHAR = /[\p{L}\p{M}\p{N}_]/u;
const NOT_AFTER_WORD_CHAR = '(?<![\\p{L}\\p{M}\\p{N}_])';
const NOT_BEFORE_WORD_CHAR = '(?![\\p{L}\\p{M}\\p{N}_])';

/** Escapes the syntax characters of a `u`-mode pattern (the only escapes `u` mode allows). */
const escapeLiteral = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** One word or phrase as a literal, bounded only where its edge is a word character ("c++" still matches "c++!"). */
function wordPattern(word: string): string {
  const parts = word.trim().split(/\s+/u).map(escapeLiteral);
  const start = WORD_CHAR.test(word.trim()[0] ?? '') ? NOT_AFTER_WORD_CHAR : '';
  const end = WORD_CHAR.test([...word.trim()].at(-1) ?? '') ? NOT_BEFORE_WORD_CHAR : '';
  return `${start}${parts.join('\\s+')}${end}`;
}

export interface WordMatcher {
  /** The first watched word found in the text, or null. */
  find(text: string): string | null;
}

export function buildMatcher(words: readonly string[]): WordMatcher {
  const usable = words.map((w) => w.trim()).filter((w) => w.length > 0);
  if (usable.length === 0) return { find: () => null };
  // Longest first, so a phrase wins over a word it starts with.
  const sorted = [...usable].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(sorted.map(wordPattern).join('|'), 'iu');
  return { find: (text) => pattern.exec(text)?.[0] ?? null };
}
