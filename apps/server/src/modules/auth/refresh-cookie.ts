import type { FastifyReply, FastifyRequest } from 'fastify';

const COOKIE = 'refreshToken';

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

/** The refresh token from the body (API clients) or else the cookie (the web app). */
export function refreshTokenOf(request: FastifyRequest, body: { refreshToken?: string } | null | undefined): string | undefined {
  return body?.refreshToken ?? request.cookies[COOKIE] ?? undefined;
}
