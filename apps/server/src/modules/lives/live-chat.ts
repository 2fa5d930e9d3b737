import type { Database } from '../../db/client.ts';
import { LIVE_CHAT_CHANNEL } from '../comments/comments.repository.ts';

/** Open chat streams one API process holds, all lives together; the next is refused (429). */
export const MAX_CHAT_STREAMS = 5_000;

/**
 * The open live-chat streams of this API process, by live. It listens on the database's NOTIFY
 * channel (every process on a PostgreSQL server, this one on PGlite), where a comment published on
 * a live is announced in the comment's transaction, and tells that live's streams.
 */
export class LiveChat {
  private readonly streams = new Map<string, Set<() => void>>();
  private count = 0;
  private starting: Promise<void> | undefined;
  private stopListening: (() => Promise<void>) | undefined;

  constructor(private readonly database: Database) {}

  /** Registers a stream; resolves to its removal, or null when the process holds too many. */
  async add(liveId: string, push: () => void): Promise<(() => void) | null> {
    this.starting ??= this.database.listen(LIVE_CHAT_CHANNEL, (id) => this.streams.get(id)?.forEach((p) => p())).then((stop) => {
      this.stopListening = stop;
    });
    await this.starting;
    if (this.count >= MAX_CHAT_STREAMS) return null;
    const set = this.streams.get(liveId) ?? new Set<() => void>();
    set.add(push);
    this.streams.set(liveId, set);
    this.count += 1;
    return () => {
      if (!set.delete(push)) return;
      this.count -= 1;
      if (set.size === 0) this.streams.delete(liveId);
    };
  }

  async close(): Promise<void> {
    this.streams.clear();
    await this.starting?.catch(() => {});
    await this.stopListening?.();
  }
}
