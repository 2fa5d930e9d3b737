import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { storageMoves } from '../db/schema.ts';

export class StorageMovesRepository {
  constructor(private readonly db: Executor) {}

  pending(): Promise<{ fromKey: string; toKey: string }[]> {
    return this.db.select().from(storageMoves);
  }

  async done(fromKey: string): Promise<void> {
    await this.db.delete(storageMoves).where(eq(storageMoves.fromKey, fromKey));
  }
}
