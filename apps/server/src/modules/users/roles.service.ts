import type { Role } from '@glimpse/contract';
import type { Config } from '../../config.ts';
import type { Executor } from '../../db/client.ts';
import { UsersRepository, type UserRow } from './users.repository.ts';

/** An account named the way an operator names it: `@handle`, or an email (any case). */
export async function findAccount(db: Executor, name: string): Promise<UserRow | undefined> {
  const users = new UsersRepository(db);
  return name.startsWith('@') ? users.findByUserName(name.slice(1)) : users.findByEmail(name.trim().toLowerCase());
}

/** `npm run admin -- grant|revoke`: the account's new row, or undefined when no account has that name. */
export async function setRole(db: Executor, name: string, role: Role): Promise<{ before: Role; after: UserRow } | undefined> {
  const account = await findAccount(db, name);
  if (!account) return undefined;
  const after = await new UsersRepository(db).setRole(account.id, role);
  return after && { before: account.role, after };
}

/**
 * ADMIN_EMAIL: its account becomes an admin once it exists and its email is verified. Run at
 * boot and whenever an email gets verified; idempotent (an admin stays as is).
 */
export async function promoteAdminEmail(db: Executor, config: Pick<Config, 'adminEmail'>): Promise<boolean> {
  return config.adminEmail ? new UsersRepository(db).promoteVerifiedToAdmin(config.adminEmail) : false;
}
