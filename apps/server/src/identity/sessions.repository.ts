import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { AccountAccess } from './account-state.ts';
import type { Executor } from '../db/client.ts';
import { sessions, users } from '../db/schema.ts';

export type SessionRow = typeof sessions.$inferSelect;
export type NewSessionRow = typeof sessions.$inferInsert;

/** Refresh-token rows; tokens are looked up by their sha256 only. */
export class SessionsRepository {
  constructor(private readonly db: Executor) {}

  async insert(row: NewSessionRow): Promise<void> {
    await this.db.insert(sessions).values(row);
  }

  /** The session of a token hash with its user's name (for the new access token). */
  async findByHash(tokenHash: string): Promise<(SessionRow & { account: AccountAccess }) | undefined> {
    const [row] = await this.db
      .select({
        session: sessions,
        account: { userName: users.userName, role: users.role, state: users.state, stateReason: users.stateReason, suspendedUntil: users.suspendedUntil },
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.tokenHash, tokenHash))
      .limit(1);
    return row ? { ...row.session, account: row.account } : undefined;
  }

  /** Marks a live token as used; false when another request rotated or revoked it first. */
  async markRotated(id: string): Promise<boolean> {
    const rows = await this.db
      .update(sessions)
      .set({ rotatedAt: sql`now()` })
      .where(and(eq(sessions.id, id), isNull(sessions.rotatedAt), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    return rows.length > 0;
  }

  /** Revokes a family (only `userId`'s, when given). */
  async revokeFamily(familyId: string, userId?: string): Promise<void> {
    await this.db
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(sessions.familyId, familyId), isNull(sessions.revokedAt), userId ? eq(sessions.userId, userId) : undefined));
  }

  /**
   * What the viewer plugin needs of an access token's account, and whether the token's session
   * (family) still lives, in the one lookup every request with a token makes (sessions_family index).
   */
  async findAccess(userId: string, familyId: string): Promise<(AccountAccess & { sessionLive: boolean }) | undefined> {
    const [row] = await this.db
      .select({
        userName: users.userName,
        role: users.role,
        state: users.state,
        stateReason: users.stateReason,
        suspendedUntil: users.suspendedUntil,
        sessionLive: sql<boolean>`EXISTS (SELECT 1 FROM sessions s WHERE s.family_id = ${familyId} AND s.user_id = ${userId} AND s.revoked_at IS NULL)`,
      })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return row;
  }

  /** Revokes every session of a user, except the family given (the caller's own session). */
  async revokeUser(userId: string, exceptFamilyId?: string): Promise<void> {
    await this.db
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(sessions.userId, userId),
          isNull(sessions.revokedAt),
          exceptFamilyId ? ne(sessions.familyId, exceptFamilyId) : undefined,
        ),
      );
  }
}
