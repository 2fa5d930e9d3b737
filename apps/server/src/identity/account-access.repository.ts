import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { users } from '../db/schema.ts';
import type { AccountAccess } from './account-state.ts';

/** The one read identity makes of an account: what the viewer plugin checks on every request. */
export class AccountAccessRepository {
  constructor(private readonly db: Executor) {}

  /** What every authenticated request checks: the account's role and state, as stored now. */
  async findAccess(id: string): Promise<AccountAccess | undefined> {
    const [row] = await this.db
      .select({ userName: users.userName, role: users.role, state: users.state, stateReason: users.stateReason, suspendedUntil: users.suspendedUntil })
      .from(users)
      .where(eq(users.id, id))
      .limit(1);
    return row;
  }
}
