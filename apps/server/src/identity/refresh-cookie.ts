import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden } from '../lib/errors.ts';

const COOKIE = 'refreshToken';
export const CROSS_ORIGIN_MESSAGE = 'Cross-origin requests cannot use the session cookie';

/** The web app's refresh token lives in an httpOnly cookie so page scripts never see it. */
export function setRefreshCookie(request: FastifyRequest, reply: FastifyReply, token: string, ttlSeconds: number): void {
  reply.setCookie(COOKIE, token, {
    httpOnly: true,
    path: '/',
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: ttlSeconds,
  });
}

export function clearRefreshCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(COOKIE, { httpOnly: true, path: '/', sameSite: 'lax', secure: request.protocol === 'https' });
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
};

/**
 * Whether a browser sent this request from one of our own pages. SameSite=Lax also sends the
 * cookie from the same *site*, e.g. a page on another port of this host, so the browser's
 * Sec-Fetch-Site and Origin decide. Requests without either come from no browser page: no CSRF.
 */
function fromOwnPage(request: FastifyRequest, publicUrl: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const host = hostOf(origin);
  // Our origin as the browser addressed us (Host), or as configured (behind a proxy that rewrites Host).
  return host !== null && (host === hostOf(`http://${request.host}`) || host === hostOf(publicUrl));
}

/**
 * The refresh token from the body (API clients) or else the cookie (the web app). The cookie
 * counts only from our own pages: another site, even on the same host, cannot end or renew a
 * session with it (403).
 */
export function refreshTokenOf(
  request: FastifyRequest,
  body: { refreshToken?: string } | null | undefined,
  publicUrl: string,
): string | undefined {
  if (body?.refreshToken) return body.refreshToken;
  const cookie = request.cookies[COOKIE];
  if (!cookie) return undefined;
  if (!fromOwnPage(request, publicUrl)) throw forbidden(CROSS_ORIGIN_MESSAGE);
  return cookie;
}
