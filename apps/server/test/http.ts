import type { SQL } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import type { UserRow } from '../src/modules/users/users.repository.ts';
import { bearer, type TestContext } from './harness.ts';

export interface Answer {
  status: number;
  // The envelope, loosely typed: tests assert on its fields.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** One API call under /api/v1, as `as` (or anonymous), from address `from`; `body` is sent as JSON, a FormData as multipart. */
export async function call(
  t: TestContext,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  opts: { as?: Pick<UserRow, 'id' | 'userName'>; body?: object | FormData; from?: string } = {},
): Promise<Answer> {
  const headers = opts.as ? await bearer(t.ctx, opts.as) : {};
  const res = await t.app.inject({ method, url: `/api/v1${url}`, headers, payload: opts.body as never, ...(opts.from ? { remoteAddress: opts.from } : {}) });
  return { status: res.statusCode, body: res.json() };
}

/** Asserts the JSON error envelope with the given status (and message, when given). */
export function expectError(res: Answer, status: number, message?: string | RegExp): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ statusCode: status, success: false });
  if (typeof message === 'string') expect(res.body.message).toBe(message);
  else if (message) expect(res.body.message).toMatch(message);
}

/** Runs raw SQL against the test database. */
export const rows = <T>(t: TestContext, query: SQL) => queryRows<T>(t.ctx.db, query);

/** A syntactically valid id that names nothing. */
export const MISSING_ID = '01900000-0000-7000-8000-000000000000';
