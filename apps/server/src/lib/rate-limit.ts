import type { Config } from '../config.ts';

type LimitName = Exclude<keyof Config['rateLimits'], 'enabled' | 'windowSeconds'>;

/**
 * Route config for @fastify/rate-limit (registered with global:false): `config: rateLimited(cfg, 'login')`.
 * A limit of 0 or RATE_LIMITS_ENABLED=false switches it off (load tests, suites creating many accounts).
 */
export function rateLimited(config: Config, name: LimitName) {
  const max = config.rateLimits[name];
  return {
    rateLimit: config.rateLimits.enabled && max > 0 ? { max, timeWindow: config.rateLimits.windowSeconds * 1000 } : false,
  } as const;
}
