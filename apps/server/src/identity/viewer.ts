import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { forbidden, loginRequired } from '../lib/errors.ts';
import { can, type Action } from '../lib/permissions.ts';
import type { Db } from '../db/client.ts';
import type { AccessTokens, TokenSubject, Viewer } from './access-token.ts';
import { AccountRefused, isActive } from './account-state.ts';
import { AccountAccessRepository } from './account-access.repository.ts';

/** Why a logged-in account without the role is refused a staff call. */
export const STAFF_ONLY_MESSAGE = 'Only moderators and admins can do this';

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in user from the Bearer token, or null for anonymous requests. */
    viewer: Viewer | null;
    /** Why a sent access token named no viewer (null when none was sent or it was good). */
    rejectedToken: 'expired' | 'invalid' | 'suspended' | 'revoked' | null;
    /**
     * On a route with `config.deferAccountCheck`: a good token's subject whose account was not read
     * (the route's own statement reads it, through `actingAs`); null otherwise.
     */
    uncheckedSubject: TokenSubject | null;
    /** Reads the account of `uncheckedSubject` now, as the plugin does for other routes (sets viewer or rejectedToken). */
    checkAccount(): Promise<void>;
  }
  interface FastifyContextConfig {
    /**
     * The route reads the account itself, in the statement it makes anyway (ADR 025: one round trip
     * per upload chunk instead of two); its handler must go through `actingAs`.
     */
    deferAccountCheck?: boolean;
  }
}

/**
 * Identity comes only from the access token. A spec client sends its token on every call, expired
 * ones included: a bad or expired token makes the request anonymous, so calls that need no login
 * (login, refresh-token, public GETs) simply work. Calls that need one answer 401, 'jwt expired'
 * for an expired token (http/errors.ts), so the client refreshes and retries.
 *
 * The account behind a good token is read on every request (one primary-key lookup): its role is
 * the one stored now, and a suspended or removed account is nobody at its very next request, not
 * when its access token expires (ARCHITECTURE §8). So is a token whose session was ended (logout,
 * password change or reset): the same lookup tells whether the token's `sid` family still lives.
 */
export const viewerPlugin = fp<{ tokens: AccessTokens; db: Db }>(async (app, { tokens, db }) => {
  const accounts = new AccountAccessRepository(db);
  const readAccount = async (request: FastifyRequest, { id, sessionId }: TokenSubject) => {
    const account = await accounts.findAccess(id, sessionId);
    if (!account) request.rejectedToken = 'invalid';
    else if (!isActive(account)) request.rejectedToken = 'suspended';
    else if (!account.sessionLive) request.rejectedToken = 'revoked';
    else request.viewer = { id, userName: account.userName, role: account.role, ...(sessionId ? { sessionId } : {}) };
  };
  app.decorateRequest('viewer', null);
  app.decorateRequest('rejectedToken', null);
  app.decorateRequest('uncheckedSubject', null);
  app.decorateRequest('checkAccount', async function (this: FastifyRequest) {
    const subject = this.uncheckedSubject;
    if (!subject) return;
    this.uncheckedSubject = null;
    await readAccount(this, subject);
  });
  const identify = async (request: FastifyRequest, header: string) => {
    const token = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
    const result = token ? await tokens.verify(token) : ({ ok: false, reason: 'invalid' } as const);
    if (!result.ok) {
      request.rejectedToken = result.reason;
      return;
    }
    if (request.routeOptions.config.deferAccountCheck) request.uncheckedSubject = result.subject;
    else await readAccount(request, result.subject);
  };
  // A visitor's request (no header) passes without a promise; a token is checked asynchronously.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.headers.authorization) return done();
    identify(request, request.headers.authorization).then(() => done(), done);
  });
});

/** The viewer, or a 401 with the given message (the spec words one per action). */
export function requireViewer(request: FastifyRequest, message = 'Unauthorized request'): Viewer {
  if (!request.viewer) throw loginRequired(message);
  return request.viewer;
}

/**
 * The handler of a `deferAccountCheck` route: runs `act` as the token's subject, whose account `act`
 * must check in its own statement, throwing AccountRefused for what the plugin's read would refuse
 * (the same 401 then). Any other failure while the account was unread is answered as if it had been
 * read first: the account is read then (a round trip on failures only), and a refused one gets its
 * 401, not the failure's answer. Without a good token (or once read), as `requireViewer`.
 */
export async function actingAs<T>(request: FastifyRequest, message: string, act: (subject: TokenSubject) => Promise<T>): Promise<T> {
  const subject = request.uncheckedSubject;
  if (!subject) return act(requireViewer(request, message));
  try {
    return await act(subject);
  } catch (err) {
    if (err instanceof AccountRefused) {
      request.uncheckedSubject = null;
      request.rejectedToken = err.reason;
      throw loginRequired(message);
    }
    await request.checkAccount();
    requireViewer(request, message);
    throw err;
  }
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

/** The viewer when their role allows `action`: 401 for visitors, 403 for everyone else. */
export function requirePermission(request: FastifyRequest, action: Action): Viewer {
  const viewer = requireViewer(request);
  if (!can(viewer, action)) throw forbidden(STAFF_ONLY_MESSAGE);
  return viewer;
}

/** Route hook for staff routes: checked before the body and params, like loginFirst. */
export function permissionFirst(action: Action) {
  return async (request: FastifyRequest) => {
    requirePermission(request, action);
  };
}
