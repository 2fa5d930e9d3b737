import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { accountAccessColumns } from './account-access.repository.ts';
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
        account: accountAccessColumns,
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
