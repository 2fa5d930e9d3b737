/**
 * Chunks are numbered 0..total-1 or 1..total, as the client counts (the spec's client counts from
 * 1). A session keeps the numbers its client sent, so the status call answers in that numbering.
 * The admission (migration 1010's function) applies the same rule under the account's lock.
 */
export type FirstChunk = 0 | 1;

/** The numbering the held chunks show: 0 or `total` decide it; null while neither was sent. */
export function firstChunkOf(held: readonly number[], total: number): FirstChunk | null {
  if (held.includes(0)) return 0;
  if (held.includes(total)) return 1;
  return null;
}

/** What the session still lacks, in its client's numbering (from 0 while undecided). */
export function missingChunks(held: readonly number[], total: number): number[] {
  const first = firstChunkOf(held, total) ?? 0;
  return Array.from({ length: total }, (_, i) => first + i).filter((n) => !held.includes(n));
}
