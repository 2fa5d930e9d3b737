import type { Executor } from '../../db/client.ts';
import { FederationRepository } from './federation.repository.ts';

/** How long the list is reused before it is read again (another process may have stored new videos). */
const TTL_MS = 30_000;

/**
 * The origins of the remote media this server shows (followed channels' HLS, thumbnails, avatars),
 * for the Content-Security-Policy: a remote video plays in our player from its origin (ARCHITECTURE
 * §14). Helmet reads directives synchronously, so the list is cached and refreshed in the background;
 * the inbox refreshes it at once when it stores a video.
 */
export class RemoteMediaOrigins {
  private origins: string[] = [];
  private readAt = 0;
  private reading: Promise<void> | undefined;

  constructor(private readonly db: Executor) {}

  /** The cached list (a refresh starts when it is stale). */
  list(): string[] {
    if (Date.now() - this.readAt > TTL_MS) void this.refresh().catch(() => {});
    return this.origins;
  }

  refresh(): Promise<void> {
    this.reading ??= new FederationRepository(this.db)
      .mediaOrigins()
      .then((origins) => {
        this.origins = origins;
        this.readAt = Date.now();
      })
      .finally(() => (this.reading = undefined));
    return this.reading;
  }
}

const perDatabase = new WeakMap<object, RemoteMediaOrigins>();

/** One cache per database handle (the app's requests and its inbox share it). */
export function remoteMediaOrigins(db: Executor): RemoteMediaOrigins {
  let origins = perDatabase.get(db);
  if (!origins) perDatabase.set(db, (origins = new RemoteMediaOrigins(db)));
  return origins;
}
