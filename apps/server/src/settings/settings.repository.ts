import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { instanceSettings } from '../db/schema.ts';

/** The one row of instance settings: only the values an admin set. */
export class SettingsRepository {
  constructor(private readonly db: Executor) {}

  async read(): Promise<unknown> {
    const [row] = await this.db.select({ value: instanceSettings.value }).from(instanceSettings).limit(1);
    return row?.value ?? {};
  }

  /** Merges `changes` into the stored values (jsonb `||`) and answers the whole stored object. */
  async merge(changes: Record<string, unknown>): Promise<unknown> {
    const [row] = await this.db
      .insert(instanceSettings)
      .values({ id: true, value: changes })
      .onConflictDoUpdate({
        target: instanceSettings.id,
        set: { value: sql`${instanceSettings.value} || excluded.value`, updatedAt: sql`now()` },
      })
      .returning({ value: instanceSettings.value });
    return row!.value;
  }
}
