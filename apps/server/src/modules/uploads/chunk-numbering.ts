/**
 * Chunks are numbered 0..total-1 or 1..total, as the client counts (the spec's client counts from
 * 1). A session keeps the numbers its client sent, so the status call answers in that numbering.
 */
export type FirstChunk = 0 | 1;

/** The numbering the held chunks show: 0 or `total` decide it; null while neither was sent. */
export function firstChunkOf(held: readonly number[], total: number): FirstChunk | null {
  if (held.includes(0)) return 0;
  if (held.includes(total)) return 1;
  return null;
}

/** Whether `chunkNumber` fits the session's numbering (a session numbered from 0 has no chunk `total`, and back). */
export function fitsNumbering(chunkNumber: number, held: readonly number[], total: number): boolean {
  const first = firstChunkOf(held, total);
  return first === null || (first === 0 ? chunkNumber < total : chunkNumber > 0);
}

/** The numbers of a whole session, in file order. */
export function chunkNumbers(first: FirstChunk, total: number): number[] {
  return Array.from({ length: total }, (_, i) => first + i);
}

/** What the session still lacks, in its client's numbering (from 0 while undecided). */
export function missingChunks(held: readonly number[], total: number): number[] {
  return chunkNumbers(firstChunkOf(held, total) ?? 0, total).filter((n) => !held.includes(n));
}
