import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { emailTokens } from '../../db/schema.ts';

export type EmailTokenPurpose = 'verify' | 'reset';

/** Single-use mail tokens (verification, password reset), kept only as sha256 hashes. */
export class EmailTokensRepository {
  constructor(private readonly db: Executor) {}

  async insert(row: { id: string; userId: string; purpose: EmailTokenPurpose; tokenHash: string; expiresAt: Date }): Promise<void> {
    await this.db.insert(emailTokens).values(row);
  }

  private live(tokenHash: string, purpose: EmailTokenPurpose) {
    return and(
      eq(emailTokens.tokenHash, tokenHash),
      eq(emailTokens.purpose, purpose),
      isNull(emailTokens.usedAt),
      gt(emailTokens.expiresAt, sql`now()`),
    );
  }

  /** The user of an unused, unexpired token, without using it up. */
  async findLiveUserId(tokenHash: string, purpose: EmailTokenPurpose): Promise<string | undefined> {
    const [row] = await this.db.select({ userId: emailTokens.userId }).from(emailTokens).where(this.live(tokenHash, purpose)).limit(1);
    return row?.userId;
  }

  /** Uses a token up in one statement, so two concurrent requests cannot both use it; returns its user. */
  async consume(tokenHash: string, purpose: EmailTokenPurpose): Promise<string | undefined> {
    const [row] = await this.db
      .update(emailTokens)
      .set({ usedAt: sql`now()` })
      .where(this.live(tokenHash, purpose))
      .returning({ userId: emailTokens.userId });
    return row?.userId;
  }

  /** Uses up every open token of a purpose (after a reset, older reset links must stop working). */
  async consumeAll(userId: string, purpose: EmailTokenPurpose): Promise<void> {
    await this.db
      .update(emailTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
  }

  async countSince(userId: string, purpose: EmailTokenPurpose, since: Date): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(emailTokens)
      .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), gt(emailTokens.createdAt, since)));
    return row?.n ?? 0;
  }
}
