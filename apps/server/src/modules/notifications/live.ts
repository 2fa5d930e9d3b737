import type { Database } from '../../db/client.ts';
import { NOTIFY_CHANNEL, NotificationsRepository } from './notifications.repository.ts';

type Push = (unread: number) => void;

/** Open streams one user may hold (tabs, devices); the next is refused. */
export const STREAMS_PER_USER = 10;

/**
 * The open notification streams of this API process, by user. It listens on the database's
 * NOTIFY channel (every process on a PostgreSQL server, this one on PGlite): after a fan-out batch
 * (`e:<eventId>`) it finds which of its connected users the event reached, after a read
 * (`u:<userId>`) just that user, and pushes each their new unread count.
 */
export class LiveNotifications {
  private readonly streams = new Map<string, Set<Push>>();
  private readonly repo: NotificationsRepository;
  private stopListening: (() => Promise<void>) | undefined;
  private starting: Promise<void> | undefined;

  constructor(private readonly database: Database) {
    this.repo = new NotificationsRepository(database.db);
  }

  /** Registers a stream; resolves to its removal, or null when the user holds too many. Starts listening with the first one. */
  async add(userId: string, push: Push): Promise<(() => void) | null> {
    this.starting ??= this.database.listen(NOTIFY_CHANNEL, (message) => this.onMessage(message)).then((stop) => {
      this.stopListening = stop;
    });
    await this.starting;
    const set = this.streams.get(userId) ?? new Set<Push>();
    if (set.size >= STREAMS_PER_USER) return null;
    set.add(push);
    this.streams.set(userId, set);
    return () => {
      set.delete(push);
      if (set.size === 0) this.streams.delete(userId);
    };
  }

  async close(): Promise<void> {
    this.streams.clear();
    await this.starting?.catch(() => {});
    await this.stopListening?.();
  }

  private onMessage(message: string): void {
    this.refresh(message).catch((err) => console.warn('notification push failed', err));
  }

  private async refresh(message: string): Promise<void> {
    const [kind, id] = [message.slice(0, 1), message.slice(2)];
    const connected = kind === 'u' ? [...this.streams.keys()].filter((u) => u === id) : [...this.streams.keys()];
    for (const { user_id, unread } of await this.repo.unreadCounts(connected, kind === 'e' ? id : null)) {
      for (const push of this.streams.get(user_id) ?? []) push(unread);
    }
  }
}
