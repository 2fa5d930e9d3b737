import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Executor } from '../db/client.ts';
import { RateLimitsRepository } from './rate-limits.repository.ts';

/**
 * A @fastify/rate-limit store whose counters live in the database, so that several API
 * processes on one PostgreSQL share every limit (ADR 006). Each route gets its own key space.
 */
export function databaseRateLimitStore(db: Executor): FastifyRateLimitStoreCtor {
  const repo = new RateLimitsRepository(db);
  const store = (prefix: string): FastifyRateLimitStore => ({
    incr(key, callback, timeWindow) {
      repo.hit(prefix + key, timeWindow).then(
        ({ hits, ttlMs }) => callback(null, { current: hits, ttl: ttlMs }),
        (err: Error) => callback(err),
      );
    },
    child(routeOptions) {
      // At run time the plugin passes its merged route params, with the route under `routeInfo`.
      const route = (routeOptions as unknown as { routeInfo: { method: string; url: string } }).routeInfo;
      return store(`${route.method} ${route.url} `);
    },
  });
  // The plugin instantiates the store with `new`; a constructor that returns an object yields it.
  return function DatabaseRateLimitStore() {
    return store('');
  } as unknown as FastifyRateLimitStoreCtor;
}
