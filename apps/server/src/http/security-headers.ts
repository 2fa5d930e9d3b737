import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's own headers instead of the app's (the embed page opens frame-ancestors). */
    securityHeaders?: HeaderSource;
  }
}

/** Something that puts the security headers on an answer. */
export interface HeaderSource {
  apply(res: ServerResponse): void;
}

type CspDirectives = NonNullable<Exclude<HelmetOptions['contentSecurityPolicy'], boolean | undefined>['directives']>;
/** The helmet options Glimpse sets, the CSP's directives spelled out so a route's policy can change one. */
export interface SecurityPolicy {
  contentSecurityPolicy: { useDefaults?: boolean; directives: CspDirectives };
  crossOriginEmbedderPolicy?: boolean;
  frameguard?: boolean;
}

type Recorded = { set: [name: string, value: string][]; removed: string[] };

/** What helmet's middleware does to a response, written down once so it can be replayed. */
function record(options: HelmetOptions): Recorded {
  const made: Recorded = { set: [], removed: [] };
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => made.set.push([name, String(value)]),
    removeHeader: (name: string) => made.removed.push(name),
  };
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return made;
}

/**
 * Helmet's headers for a policy, made once instead of per request (@fastify/helmet built helmet's
 * middleware again for every request: about 3 % of a feed request's CPU, ADR 025). `state` is the
 * part of the policy that changes while the server runs (the remote media origins, a list replaced
 * when it is re-read): the headers are made again only when it is a different value.
 */
export class SecurityHeaders<S> implements HeaderSource {
  private made: { state: S; headers: Recorded } | undefined;

  constructor(
    private readonly options: (state: S) => SecurityPolicy,
    private readonly state: () => S,
  ) {}

  /** The same policy with some options changed (a route's own). */
  with(change: (options: SecurityPolicy) => SecurityPolicy): SecurityHeaders<S> {
    return new SecurityHeaders((state) => change(this.options(state)), this.state);
  }

  apply(res: ServerResponse): void {
    const state = this.state();
    if (!this.made || this.made.state !== state) this.made = { state, headers: record(this.options(state)) };
    const { set, removed } = this.made.headers;
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of set) res.setHeader(name, value);
  }
}

/**
 * An answer that is data, never a page: nothing in it may load, run or be framed. Smaller than a
 * page's policy (41 bytes against 419: an API answer's headers 582 bytes, not 960) and stricter
 * (OWASP's REST advice).
 */
export const DATA_POLICY: SecurityPolicy = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginEmbedderPolicy: false,
};
/** DATA_POLICY's headers: one policy that never changes, so they are made once. */
export const DATA_HEADERS = new SecurityHeaders(() => DATA_POLICY, () => null);

export interface AppHeaders {
  /** The web app's pages, its files and everything not under `dataPrefix`. */
  pages: HeaderSource;
  /** The JSON API's answers. */
  data: HeaderSource;
  dataPrefix: string;
}

/** Every answer gets its route's own headers (`config.securityHeaders`), else the API's or the pages'. */
export function installSecurityHeaders(app: FastifyInstance, headers: AppHeaders): void {
  app.addHook('onRequest', (request, reply, done) => {
    const own = request.routeOptions.config.securityHeaders;
    (own ?? (request.url.startsWith(headers.dataPrefix) ? headers.data : headers.pages)).apply(reply.raw);
    done();
  });
}
