import { createHmac } from 'node:crypto';
import { messages, type RefreshResult } from '@glimpse/contract';
import type { AppContext } from '../context.ts';
import { unauthorized } from '../lib/errors.ts';
import { randomToken, sha256 } from '../lib/hash.ts';
import { newId } from '../lib/ids.ts';
import type { TokenSubject } from './access-token.ts';
import { accountRefusal } from './account-state.ts';
import { SessionsRepository } from './sessions.repository.ts';

/**
 * A rotated token presented again this soon, while its successor is still unused, is a refresh
 * whose answer never arrived (a reload or a second tab during the page's start-up refresh), not a
 * replay: it gets the same successor again (docs/decisions/003-tokens.md, addendum 2).
 */
const LOST_ANSWER_GRACE_MS = 30_000;

/**
 * Login sessions: a short-lived JWT access token plus an opaque refresh token stored as a hash.
 * Each refresh rotates the token inside its family (one login); presenting a rotated token again
 * means it was stolen or replayed, so the whole family is revoked (docs/decisions/003-tokens.md).
 */
export class SessionsService {
  private readonly sessions: SessionsRepository;

  constructor(private readonly ctx: AppContext) {
    this.sessions = new SessionsRepository(ctx.db);
  }

  /** Starts a new session family for a user who just proved who they are. */
  async start(user: TokenSubject, userAgent?: string): Promise<RefreshResult> {
    return this.issue(this.sessions, user, newId(), userAgent);
  }

  /** Trades a live refresh token for a new pair; a replayed one revokes its family. */
  async refresh(refreshToken: string, userAgent?: string): Promise<RefreshResult> {
    const current = await this.sessions.findByHash(sha256(refreshToken));
    if (!current || current.revokedAt || current.expiresAt <= new Date()) throw unauthorized(messages.refreshTokenInvalid);
    // Suspension revokes sessions; this also covers one that has not been revoked yet.
    const refusal = accountRefusal(current.account);
    if (refusal) throw unauthorized(refusal.message);
    const user = { id: current.userId, userName: current.account.userName };
    const successor = this.successorOf(refreshToken);
    const issued = current.rotatedAt
      ? null
      : await this.ctx.db.transaction(async (tx) => {
          const repo = new SessionsRepository(tx);
          if (!(await repo.markRotated(current.id))) return null;
          return this.issue(repo, user, current.familyId, userAgent, successor);
        });
    if (issued) return issued;
    // Rotated before (or by a concurrent refresh, committed by now): the same answer again while
    // nobody has used it; otherwise a copy of the token is in other hands.
    const rotatedAt = current.rotatedAt ?? new Date();
    const next = Date.now() - rotatedAt.getTime() <= LOST_ANSWER_GRACE_MS ? await this.sessions.findByHash(sha256(successor)) : undefined;
    if (next && !next.rotatedAt && !next.revokedAt) {
      return { accessToken: await this.accessToken(user, current.familyId), refreshToken: successor };
    }
    // Outside the transaction above, so the revocation stands.
    await this.sessions.revokeFamily(current.familyId);
    throw unauthorized(messages.refreshTokenReused);
  }

  /** Ends the session a refresh token belongs to; unknown tokens are ignored (logout is idempotent). */
  async end(refreshToken: string): Promise<void> {
    const current = await this.sessions.findByHash(sha256(refreshToken));
    if (current) await this.sessions.revokeFamily(current.familyId);
  }

  /** Ends the session an access token was issued for (a logout that sends no refresh token ends it too). */
  async endSession(userId: string, sessionId: string): Promise<void> {
    await this.sessions.revokeFamily(sessionId, userId);
  }

  /**
   * Revokes all of a user's sessions but the caller's: the one its access token names, else the one
   * the given refresh token belongs to, if it is theirs.
   */
  async revokeOthers(userId: string, keepRefreshToken: string | undefined, keepSessionId?: string): Promise<void> {
    if (keepSessionId) return this.sessions.revokeUser(userId, keepSessionId);
    const keep = keepRefreshToken ? await this.sessions.findByHash(sha256(keepRefreshToken)) : undefined;
    await this.sessions.revokeUser(userId, keep?.userId === userId ? keep.familyId : undefined);
  }

  /**
   * The token that replaces `token`: derived from it with the server's secret, so a lost answer
   * can be given again without keeping any token, and unguessable without that secret.
   */
  private successorOf(token: string): string {
    return createHmac('sha256', this.ctx.config.jwtSecret).update(`refresh-successor\0${token}`).digest('base64url');
  }

  private async issue(repo: SessionsRepository, user: TokenSubject, familyId: string, userAgent?: string, refreshToken = randomToken()): Promise<RefreshResult> {
    await repo.insert({
      id: newId(),
      familyId,
      userId: user.id,
      tokenHash: sha256(refreshToken),
      expiresAt: new Date(Date.now() + this.ctx.config.refreshTokenTtl * 1000),
      userAgent: userAgent?.slice(0, 300) ?? null,
    });
    return { accessToken: await this.accessToken(user, familyId), refreshToken };
  }

  /** The access token names its family: it is refused as soon as the family is revoked. */
  private accessToken(user: TokenSubject, familyId: string): Promise<string> {
    return this.ctx.tokens.sign({ id: user.id, userName: user.userName, sessionId: familyId });
  }
}
