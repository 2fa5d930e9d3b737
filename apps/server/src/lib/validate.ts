import type { z } from 'zod';
import { badRequest } from './errors.ts';

/**
 * Validates values that do not pass through a route schema (multipart fields) and answers 400
 * in the same shape as schema failures.
 */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown, where = 'body'): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = result.error.issues.map((i) => ({ path: [where, ...i.path.map(String)].join('.'), message: i.message }));
  throw badRequest(errors[0]?.message ?? 'Invalid request', errors);
}
