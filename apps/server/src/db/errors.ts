/**
 * True when err is PostgreSQL's unique violation (23505), optionally of one named constraint.
 * Drizzle wraps driver errors, so the chain of causes is searched.
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e && typeof e === 'object'; depth += 1) {
    const { code, constraint: name } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return constraint === undefined || name === constraint;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
