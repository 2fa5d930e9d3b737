import pg from 'pg';

type OnMessage = (payload: string) => void;

/** Before a dropped listening connection is made again: what is notified in between is missed. */
const RECONNECT_MS = 1000;
/** Idle time before the listening connection's first TCP keepalive probe. */
const KEEPALIVE_MS = 30_000;

/**
 * LISTEN on one connection of its own, beside the pool, for every channel of a process: a
 * listener held a pooled connection for good before, and the job worker, the notification streams
 * and live chat together took 3 of the pool's 10 from the requests. A dropped connection is made
 * again a second later and listens to every channel again (listeners re-read their state on
 * reconnect). The connection is ended when no channel is listened to.
 */
export class PgListener {
  private readonly channels = new Map<string, Set<{ onMessage: OnMessage }>>();
  /** The connection, while it is being made or is up. */
  private client: Promise<pg.Client> | undefined;
  /** The connection that is up: only its drop is made again. */
  private live: pg.Client | undefined;
  private retrying: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly config: pg.ClientConfig) {}

  async listen(channel: string, onMessage: OnMessage): Promise<() => Promise<void>> {
    if (this.closed) throw new Error('The database is closed');
    const entry = { onMessage };
    const set = this.channels.get(channel) ?? new Set();
    const first = set.size === 0;
    set.add(entry);
    this.channels.set(channel, set);
    try {
      const client = await this.connection();
      // A connection made meanwhile listens to every channel already; LISTEN again changes nothing.
      if (first) await client.query(`LISTEN ${channel}`);
    } catch (err) {
      await this.remove(channel, entry);
      throw err;
    }
    let stopped = false;
    return async () => {
      if (stopped) return;
      stopped = true;
      await this.remove(channel, entry);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.channels.clear();
    await this.disconnect();
  }

  private async remove(channel: string, entry: { onMessage: OnMessage }): Promise<void> {
    const set = this.channels.get(channel);
    if (!set?.delete(entry) || set.size > 0) return;
    this.channels.delete(channel);
    if (this.channels.size === 0) return this.disconnect();
    const client = await this.client?.catch(() => undefined);
    await client?.query(`UNLISTEN ${channel}`).catch(() => {});
  }

  private connection(): Promise<pg.Client> {
    this.client ??= this.connect().catch((err: unknown) => {
      this.client = undefined;
      throw err;
    });
    return this.client;
  }

  private async connect(): Promise<pg.Client> {
    // TCP keepalive: this connection only receives, so a peer gone silently (a failover, a NAT's
    // timeout) would otherwise never be noticed and the channels would go deaf.
    const client = new pg.Client({ ...this.config, keepAlive: true, keepAliveInitialDelayMillis: KEEPALIVE_MS });
    let dropped = false;
    // A broken connection reports 'error' and then 'end', and may do so after it was ended here.
    const onDrop = () => {
      if (dropped) return;
      dropped = true;
      if (this.live !== client) return;
      this.live = undefined;
      this.client = undefined;
      client.end().catch(() => {});
      this.retry();
    };
    client.on('error', onDrop);
    client.on('end', onDrop);
    client.on('notification', (m) => this.channels.get(m.channel)?.forEach((e) => e.onMessage(m.payload ?? '')));
    try {
      await client.connect();
      for (const channel of this.channels.keys()) await client.query(`LISTEN ${channel}`);
    } catch (err) {
      dropped = true;
      await client.end().catch(() => {});
      throw err;
    }
    this.live = client;
    return client;
  }

  private retry(): void {
    if (this.closed || this.channels.size === 0 || this.retrying) return;
    this.retrying = setTimeout(() => {
      this.retrying = undefined;
      if (this.closed || this.channels.size === 0) return;
      this.connection().catch(() => this.retry());
    }, RECONNECT_MS);
    this.retrying.unref();
  }

  private async disconnect(): Promise<void> {
    clearTimeout(this.retrying);
    this.retrying = undefined;
    const pending = this.client;
    this.client = undefined;
    const client = await pending?.catch(() => undefined);
    if (!client) return;
    if (this.live === client) this.live = undefined;
    await client.end().catch(() => {});
  }
}
