import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { JobsRepository } from '../../jobs/jobs.repository.ts';
import { PermanentJobError, type JobHandler } from '../../jobs/worker.ts';
import { newId } from '../../lib/ids.ts';
import { ACTIVITY_JSON, FederationUrls } from './documents.ts';
import { FederationRepository } from './federation.repository.ts';
import { newKeyPair, signRequest } from './http-signature.ts';
import { RemoteFetchError, safeFetch } from './safe-fetch.ts';

export const DELIVER_QUEUE = 'federation-deliver';
/** Attempts per delivery: with the queue's doubling back-off (10 s first) the last is about 40 minutes after the first. */
const DELIVERY_ATTEMPTS = 8;
/** Retry of a delivery held back by the per-host cap. */
const HOST_BUSY_RETRY_MS = 2000;
/**
 * A delivery held back (its host paused or busy) is queued again as a new job, with fresh attempts:
 * after this long from its first queueing it is dropped instead, so a host that stays down does
 * not keep its deliveries going round the queue for ever.
 */
export const DELIVERY_MAX_AGE_MS = 3 * 24 * 3600_000;

/** Who signs: the instance actor, or a local user's account or channel actor (same key, its own keyId). */
export type Signer = { kind: 'instance' } | { kind: 'account' | 'channel'; userId: string };

export interface DeliveryPayload {
  inbox: string;
  activity: Record<string, unknown>;
  signer: Signer;
  /** When the delivery was first queued (ISO); set at the first deferral on jobs queued without it. */
  firstQueuedAt?: string;
}

export const signerKeyId = (u: FederationUrls, s: Signer): string =>
  u.keyId(s.kind === 'instance' ? u.instance() : s.kind === 'account' ? u.account(s.userId) : u.channel(s.userId));

/** The actor's key pair, made and stored on first use (a concurrent first use keeps the stored one). */
export async function keyFor(db: Executor, s: Signer) {
  const id = s.kind === 'instance' ? 'instance' : s.userId;
  const repo = new FederationRepository(db);
  const found = await repo.key(id);
  if (found) return found;
  const pair = await newKeyPair();
  return repo.insertKey({ id, userId: s.kind === 'instance' ? null : s.userId, ...pair });
}

/** Queues one delivery per inbox, in the caller's transaction. */
export async function enqueueDeliveries(tx: Executor, inboxes: string[], activity: Record<string, unknown>, signer: Signer): Promise<number> {
  const jobs = new JobsRepository(tx);
  const firstQueuedAt = new Date().toISOString();
  for (const inbox of new Set(inboxes)) await jobs.enqueue(DELIVER_QUEUE, { inbox, activity, signer, firstQueuedAt } satisfies DeliveryPayload, { maxAttempts: DELIVERY_ATTEMPTS });
  return new Set(inboxes).size;
}

/**
 * The delivery job: one signed POST. A paused host (many failures in a row) or one already at its
 * cap of requests in flight from this worker gets the job queued again for later, so a slow or
 * dead server never holds the worker's lanes. 4xx but 429 is final; anything else retries.
 */
export function deliveryHandler(ctx: AppContext): JobHandler<DeliveryPayload> {
  const urls = new FederationUrls(ctx.config.publicUrl);
  const repo = new FederationRepository(ctx.db);
  const jobs = new JobsRepository(ctx.db);
  const inFlight = new Map<string, number>();
  const later = async (p: DeliveryPayload, at: Date) => {
    const firstQueuedAt = p.firstQueuedAt ?? new Date().toISOString();
    if (at.getTime() - Date.parse(firstQueuedAt) > DELIVERY_MAX_AGE_MS) return { skipped: `gave up: ${new URL(p.inbox).host} could not be reached since ${firstQueuedAt}` };
    await jobs.enqueue(DELIVER_QUEUE, { ...p, firstQueuedAt }, { maxAttempts: DELIVERY_ATTEMPTS, runAt: at });
    return { deferred: at.toISOString() };
  };
  return {
    async run(p) {
      if (!ctx.config.federation.enabled) return { skipped: 'federation off' };
      const url = new URL(p.inbox);
      const host = url.host;
      if (await repo.isBlocked(host)) return { skipped: 'blocked host' };
      const paused = await repo.hostPausedUntil(host);
      if (paused) return later(p, paused);
      if ((inFlight.get(host) ?? 0) >= ctx.config.federation.hostConcurrency) return later(p, new Date(Date.now() + HOST_BUSY_RETRY_MS));
      inFlight.set(host, (inFlight.get(host) ?? 0) + 1);
      try {
        const body = JSON.stringify(p.activity);
        const key = await keyFor(ctx.db, p.signer);
        const headers = signRequest({ method: 'POST', url, body, keyId: signerKeyId(urls, p.signer), privateKeyPem: key.privateKeyPem });
        let status: number;
        try {
          ({ status } = await safeFetch(url, {
            method: 'POST',
            body,
            headers: { ...headers, 'content-type': ACTIVITY_JSON, accept: ACTIVITY_JSON },
            allowPrivate: ctx.config.federation.allowPrivateAddresses,
            maxBytes: 64 * 1024,
          }));
        } catch (err) {
          if (err instanceof RemoteFetchError && err.message.startsWith('refused')) throw new PermanentJobError(err.message);
          await repo.hostFailed(host);
          throw err;
        }
        if (status >= 200 && status < 300) {
          await repo.hostSucceeded(host);
          return { delivered: status };
        }
        if (status >= 400 && status < 500 && status !== 429) throw new PermanentJobError(`${host} refused the activity (${status})`);
        await repo.hostFailed(host);
        throw new Error(`${host} answered ${status}`);
      } finally {
        inFlight.set(host, (inFlight.get(host) ?? 1) - 1);
      }
    },
    onFailed: async () => {},
  };
}

export const newActivityId = (u: FederationUrls, kind: string): string => u.activity(kind, newId());
