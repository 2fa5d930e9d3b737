import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { afterCursor, type PageWindow } from '../../lib/keyset.ts';

const pending = eq(users.state, 'pending_approval');

const registrationColumns = {
  id: users.id,
  fullName: users.fullName,
  userName: users.userName,
  email: users.email,
  emailVerifiedAt: users.emailVerifiedAt,
  createdAt: users.createdAt,
  registrationReason: users.registrationReason,
};
export type RegistrationRow = Pick<typeof users.$inferSelect, keyof typeof registrationColumns>;

/** Accounts waiting for a moderator (registration in approval mode). */
export class RegistrationsRepository {
  constructor(private readonly db: Executor) {}

  /** Oldest first, keyset-paginated on (created_at, id). */
  listPending(w: PageWindow): Promise<RegistrationRow[]> {
    return this.db
      .select(registrationColumns)
      .from(users)
      .where(and(pending, afterCursor(users, users.createdAt, users.id, w.after, pending, 'asc')))
      .orderBy(asc(users.createdAt), asc(users.id))
      .limit(w.limit + 1)
      .offset(w.offset);
  }

  /** Makes a pending account active; undefined when no pending account has this id. */
  async approve(userId: string): Promise<RegistrationRow | undefined> {
    const [row] = await this.db
      .update(users)
      .set({ state: 'active', stateReason: null, updatedAt: sql`now()` })
      .where(and(eq(users.id, userId), pending))
      .returning(registrationColumns);
    return row;
  }

  /** Deletes a pending account (it has no content yet; its tokens and sessions cascade). */
  async remove(userId: string): Promise<RegistrationRow | undefined> {
    const [row] = await this.db.delete(users).where(and(eq(users.id, userId), pending)).returning(registrationColumns);
    return row;
  }
}
