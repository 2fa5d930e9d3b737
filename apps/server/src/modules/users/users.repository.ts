import type { Role } from '@glimpse/contract';
import { and, eq, isNotNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type ImageColumn = 'avatarKey' | 'coverKey';

export class UsersRepository {
  constructor(private readonly db: Executor) {}

  async insert(row: NewUserRow): Promise<UserRow> {
    const [created] = await this.db.insert(users).values(row).returning();
    return created!;
  }

  /** Whether any account exists (the demo seed only fills an empty instance). */
  async any(): Promise<boolean> {
    const rows = await this.db.select({ id: users.id }).from(users).limit(1);
    return rows.length > 0;
  }

  async findById(id: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id)).limit(1);
    return row;
  }

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.email, email)).limit(1);
    return row;
  }

  async findByUserName(userName: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.userName, userName)).limit(1);
    return row;
  }

  /** Every user name starting with prefix (to find a free numbered variant of a wanted name). */
  async userNamesStartingWith(prefix: string): Promise<string[]> {
    const rows = await this.db
      .select({ userName: users.userName })
      .from(users)
      .where(sql`starts_with(${users.userName}, ${prefix})`);
    return rows.map((r) => r.userName);
  }

  async update(
    id: string,
    changes: Partial<Pick<NewUserRow, 'fullName' | 'userName' | 'passwordHash'>>,
  ): Promise<UserRow | undefined> {
    const [row] = await this.db
      .update(users)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(eq(users.id, id))
      .returning();
    return row;
  }

  async setRole(id: string, role: Role): Promise<UserRow | undefined> {
    const [row] = await this.db.update(users).set({ role, updatedAt: sql`now()` }).where(eq(users.id, id)).returning();
    return row;
  }

  /** Makes the account with this email an admin if its email is verified; true when it changed. */
  async promoteVerifiedToAdmin(email: string): Promise<boolean> {
    const rows = await this.db
      .update(users)
      .set({ role: 'admin', updatedAt: sql`now()` })
      .where(and(eq(users.email, email), isNotNull(users.emailVerifiedAt), ne(users.role, 'admin')))
      .returning({ id: users.id });
    return rows.length > 0;
  }

  async markEmailVerified(id: string): Promise<void> {
    await this.db
      .update(users)
      .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
      .where(eq(users.id, id));
  }

  /**
   * Points an image column at a new key and returns the row with the key it replaced, so the
   * caller can delete the old file. Run in a transaction: the row lock orders concurrent uploads.
   */
  async replaceImage(id: string, column: ImageColumn, key: string): Promise<{ user: UserRow; oldKey: string | null } | undefined> {
    const [current] = await this.db.select({ key: users[column] }).from(users).where(eq(users.id, id)).for('update');
    if (!current) return undefined;
    const [user] = await this.db
      .update(users)
      .set({ [column]: key, updatedAt: sql`now()` })
      .where(eq(users.id, id))
      .returning();
    return user && { user, oldKey: current.key };
  }
}

/** The columns the owner block of videos, tweets, comments and playlists is built from (see toOwner). */
export const ownerColumns = {
  id: users.id,
  userName: users.userName,
  fullName: users.fullName,
  avatarKey: users.avatarKey,
};
export type OwnerRow = Pick<UserRow, 'id' | 'userName' | 'fullName' | 'avatarKey'>;
