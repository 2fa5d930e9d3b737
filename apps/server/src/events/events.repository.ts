import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/client.ts';

export interface EventRow {
  id: string;
  kind: string;
  actor_id: string | null;
  payload: Record<string, unknown>;
}

/** The outbox of domain events: a row lives from the change that caused it until its subscribers ran. */
export class EventsRepository {
  constructor(private readonly db: Executor) {}

  async insert(id: string, kind: string, actorId: string | null, payload: object): Promise<void> {
    await this.db.execute(sql`INSERT INTO events (id, kind, actor_id, payload) VALUES (${id}, ${kind}, ${actorId}, ${JSON.stringify(payload)}::jsonb)`);
  }

  async find(id: string): Promise<EventRow | undefined> {
    const [row] = await queryRows<EventRow>(this.db, sql`SELECT id, kind, actor_id, payload FROM events WHERE id = ${id}`);
    return row;
  }

  /** The event is told: the outbox row goes (what subscribers wrote keeps its id). */
  async delete(id: string): Promise<void> {
    await this.db.execute(sql`DELETE FROM events WHERE id = ${id}`);
  }
}
