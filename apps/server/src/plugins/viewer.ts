import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { loginRequired } from '../lib/errors.ts';
import type { AccessTokens, Viewer } from '../modules/auth/access-token.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in user from the Bearer token, or null for anonymous requests. */
    viewer: Viewer | null;
    /** Why a sent access token named no viewer (null when none was sent or it was good). */
    rejectedToken: 'expired' | 'invalid' | null;
  }
}

/**
 * Identity comes only from the access token. A spec client sends its token on every call, expired
 * ones included: a bad or expired token makes the request anonymous, so calls that need no login
 * (login, refresh-token, public GETs) simply work. Calls that need one answer 401, 'jwt expired'
 * for an expired token (plugins/errors.ts), so the client refreshes and retries.
 */
export const viewerPlugin = fp<{ tokens: AccessTokens }>(async (app, { tokens }) => {
  app.decorateRequest('viewer', null);
  app.decorateRequest('rejectedToken', null);
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (!header) return;
    const token = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
    const result = token ? await tokens.verify(token) : ({ ok: false, reason: 'invalid' } as const);
    if (result.ok) request.viewer = result.viewer;
    else request.rejectedToken = result.reason;
  });
});

/** The viewer, or a 401 with the given message (the spec words one per action). */
export function requireViewer(request: FastifyRequest, message = 'Unauthorized request'): Viewer {
  if (!request.viewer) throw loginRequired(message);
  return request.viewer;
}

/**
 * Route hook for login-only calls: answers the 401 before the body and params are validated,
 * so an anonymous caller learns they must log in rather than what their input lacks.
 */
export function loginFirst(message: string) {
  return async (request: FastifyRequest) => {
    requireViewer(request, message);
  };
}
