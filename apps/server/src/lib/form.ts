import type { z } from 'zod';
import { badRequest } from './errors.ts';

/** Validates multipart text fields with a contract schema; the first problem is the 400 message. */
export function parseFields<S extends z.ZodType>(schema: S, fields: unknown): z.infer<S> {
  const parsed = schema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((i) => ({ path: ['body', ...i.path.map(String)].join('.'), message: i.message }));
  throw badRequest(errors[0]!.message, errors);
}
