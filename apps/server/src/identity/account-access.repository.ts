import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { users } from '../db/schema.ts';
import type { AccountAccess } from './account-state.ts';

/** The columns of an account that decide what it may do (AccountAccess), for every query that reads them. */
export const accountAccessColumns = {
  userName: users.userName,
  role: users.role,
  state: users.state,
  stateReason: users.stateReason,
  suspendedUntil: users.suspendedUntil,
};

/** The one read identity makes of an account: what the viewer plugin checks on every request. */
export class AccountAccessRepository {
  constructor(private readonly db: Executor) {}

  /**
   * The account's role and state as stored now and, for a token of a session (`familyId`), whether
   * that session still lives: one lookup per request with a token (sessions_family index).
   */
  async findAccess(userId: string, familyId?: string): Promise<(AccountAccess & { sessionLive: boolean }) | undefined> {
    const live = familyId
      ? sql<boolean>`EXISTS (SELECT 1 FROM sessions s WHERE s.family_id = ${familyId} AND s.user_id = ${userId} AND s.revoked_at IS NULL)`
      : sql<boolean>`true`;
    const [row] = await this.db
      .select({ ...accountAccessColumns, sessionLive: live })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return row;
  }
}
