import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { messages } from '@glimpse/contract';
import { ApiError, unauthorized } from '../lib/errors.ts';
import type { AccessTokens, Viewer } from '../modules/auth/access-token.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in user from the Bearer token, or null for anonymous requests. */
    viewer: Viewer | null;
  }
}

/**
 * Identity comes only from the access token. A sent-but-expired token answers 401 'jwt expired'
 * on every route so the client refreshes and retries (answers such as isSubscribed depend on it).
 */
export const viewerPlugin = fp<{ tokens: AccessTokens }>(async (app, { tokens }) => {
  app.decorateRequest('viewer', null);
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (!header) return;
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match?.[1]) throw new ApiError(401, 'Invalid access token');
    const result = await tokens.verify(match[1].trim());
    if (!result.ok) throw new ApiError(401, result.reason === 'expired' ? messages.jwtExpired : 'Invalid access token');
    request.viewer = result.viewer;
  });
});

/** The viewer, or a 401 with the given message (the spec words one per action). */
export function requireViewer(request: FastifyRequest, message = 'Unauthorized request'): Viewer {
  if (!request.viewer) throw unauthorized(message);
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
