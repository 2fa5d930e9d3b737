import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

export class UsersRepository {
  constructor(private readonly db: Executor) {}

  async insert(row: NewUserRow): Promise<UserRow> {
    const [created] = await this.db.insert(users).values(row).returning();
    return created!;
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
}

/** The columns the owner block of videos, tweets, comments and playlists is built from (see toOwner). */
export const ownerColumns = {
  id: users.id,
  userName: users.userName,
  fullName: users.fullName,
  avatarKey: users.avatarKey,
};
export type OwnerRow = Pick<UserRow, 'id' | 'userName' | 'fullName' | 'avatarKey'>;
