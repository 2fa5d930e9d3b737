/**
 * True when err is PostgreSQL's unique violation (23505), optionally of one named constraint.
 * Drizzle wraps driver errors, so the chain of causes is searched.
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = findCause(err, (c) => c.code === '23505');
  return e !== undefined && (constraint === undefined || e.constraint === constraint);
}

/** True when err (or a cause of it) carries this PostgreSQL error code. */
export function hasPgCode(err: unknown, code: string): boolean {
  return findCause(err, (c) => c.code === code) !== undefined;
}

/** PostgreSQL and socket codes of a database that went away (restart, killed backend, refused connection). */
const UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

/**
 * True when err means the database cannot be reached right now, rather than that the query is wrong:
 * the request may succeed if retried, so it answers 503 instead of 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  return (
    findCause(err, (c) => {
      const code = typeof c.code === 'string' ? c.code : '';
      return (
        UNAVAILABLE.has(code) ||
        code.startsWith('08') ||
        // datallowconn = false (a database closed for maintenance) answers 55000 at connect.
        (code === '55000' && /not currently accepting connections/.test(String(c.message))) ||
        /^Connection terminated|^Client has encountered a connection error/.test(String(c.message))
      );
    }) !== undefined
  );
}

type ErrorLike = { code?: unknown; constraint?: unknown; message?: unknown; cause?: unknown };

/** Drizzle wraps driver errors: searches the chain of causes. */
function findCause(err: unknown, match: (e: ErrorLike) => boolean): ErrorLike | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e && typeof e === 'object'; depth += 1) {
    if (match(e as ErrorLike)) return e as ErrorLike;
    e = (e as ErrorLike).cause;
  }
  return undefined;
}
