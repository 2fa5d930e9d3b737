import type { z } from 'zod';
import { CONTROL_CHARACTERS_MESSAGE, hasControlCharacters } from '@glimpse/contract';
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

/**
 * 400 when any string in `value` (keys included, at any depth) carries a control character.
 * Walks with a stack, not recursion: a 1 MB JSON body can nest far deeper than the call stack.
 */
export function refuseControlCharacters(where: string, value: unknown): void {
  const stack: [unknown, string][] = [[value, where]];
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (typeof item === 'string') {
      if (hasControlCharacters(item)) throw controlCharacters(path);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        if (hasControlCharacters(key)) throw controlCharacters(path);
        stack.push([child, `${path}.${key}`]);
      }
    }
  }
}

const controlCharacters = (path: string) => {
  const message = `${path.slice(path.lastIndexOf('.') + 1)} ${CONTROL_CHARACTERS_MESSAGE}`;
  return badRequest(message, [{ path, message }]);
};
