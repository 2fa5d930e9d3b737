import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

type LimitName = Exclude<keyof Config['rateLimits'], 'enabled' | 'windowSeconds'>;

/**
 * Limits on what an account does count per account, not per address: people behind one address (a
 * campus, a carrier's NAT, a household) do not share one allowance, and a user does not get a fresh
 * one by changing address. The others (login, sign-up, heartbeats) come before or without an account.
 */
const PER_ACCOUNT: ReadonlySet<LimitName> = new Set(['comment', 'report', 'upload']);

/**
 * The account a verified token names (read or, on a deferAccountCheck route, not yet read); the
 * address when there is none. The viewer plugin's hook runs before any route's rate limit.
 */
export const accountOrAddress = (request: FastifyRequest): string => {
  const id = request.viewer?.id ?? request.uncheckedSubject?.id;
  return id ? `account:${id}` : request.ip;
};

/**
 * Route config for @fastify/rate-limit (registered with global:false): `config: rateLimited(cfg, 'login')`.
 * A limit of 0 or RATE_LIMITS_ENABLED=false switches it off (load tests, suites creating many accounts).
 */
export function rateLimited(config: Config, name: LimitName) {
  const max = config.rateLimits[name];
  return {
    rateLimit:
      config.rateLimits.enabled && max > 0
        ? { max, timeWindow: config.rateLimits.windowSeconds * 1000, ...(PER_ACCOUNT.has(name) ? { keyGenerator: accountOrAddress } : {}) }
        : false,
  } as const;
}
