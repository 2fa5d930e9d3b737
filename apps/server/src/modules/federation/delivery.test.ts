import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.ts';
import { PermanentJobError, type JobContext } from '../../jobs/worker.ts';
import { createTestApp, createUser, memoryLog, type TestContext } from '../../../test/harness.ts';
import type { UserRow } from '../users/users.repository.ts';
import { DELIVER_QUEUE, DELIVERY_MAX_AGE_MS, deliveryHandler, keyFor, type DeliveryPayload } from './delivery.ts';
import { parseSignatureHeader, verifyRequest } from './http-signature.ts';

/**
 * The delivery job against local fake inboxes (a third party across the network is what we may
 * fake): it signs as PeerTube and Mastodon verify, a 4xx is final, a failing host gets paused, and a
 * host at its cap of requests in flight (or paused) has its job re-queued instead of holding the
 * worker, so other hosts are served meanwhile.
 */

interface FakeInbox {
  url: string;
  requests: { path: string; headers: http.IncomingHttpHeaders; body: string }[];
  status: number;
  /** While set, requests wait for it. */
  hold?: Promise<void>;
  close(): Promise<void>;
}

async function fakeInbox(status = 202): Promise<FakeInbox> {
  const inbox: Partial<FakeInbox> = { requests: [], status };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      inbox.requests!.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      await inbox.hold;
      res.writeHead(inbox.status!).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  inbox.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/inbox`;
  inbox.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return inbox as FakeInbox;
}

let t: TestContext;
let alice: UserRow;
const inboxes: FakeInbox[] = [];
const job = { jobId: 'j', attempt: 1, signal: new AbortController().signal, heartbeat: async () => {}, log: memoryLog() } satisfies JobContext;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://glimpse.test', FEDERATION_ALLOW_PRIVATE_ADDRESSES: 'true', FEDERATION_HOST_CONCURRENCY: '1' });
  alice = await createUser(t.ctx, { userName: 'alice' });
});

afterAll(async () => {
  for (const i of inboxes) await i.close();
  await t?.close();
});

const inbox = async (status?: number) => {
  const i = await fakeInbox(status);
  inboxes.push(i);
  return i;
};
const payload = (url: string): DeliveryPayload => ({
  inbox: url,
  activity: { type: 'Create', id: 'http://glimpse.test/ap/activities/create/1', actor: `http://glimpse.test/ap/channels/${alice.id}` },
  signer: { kind: 'channel', userId: alice.id },
});
const queued = (url: string) =>
  queryRows<{ run_at: Date }>(t.ctx.db, sql`SELECT run_at FROM jobs WHERE queue = ${DELIVER_QUEUE} AND payload->>'inbox' = ${url}`);

describe('delivery', () => {
  it('POSTs the activity signed (request-target, host, date, digest) with the channel key', async () => {
    const target = await inbox();
    const result = await deliveryHandler(t.ctx).run(payload(target.url), job);
    expect(result).toEqual({ delivered: 202 });
    const [req] = target.requests;
    expect(req!.headers['content-type']).toBe('application/activity+json');
    const params = parseSignatureHeader(req!.headers.signature as string)!;
    expect(params.keyId).toBe(`http://glimpse.test/ap/channels/${alice.id}#main-key`);
    expect(params.headers).toEqual(['(request-target)', 'host', 'date', 'digest']);
    const key = await keyFor(t.ctx.db, { kind: 'channel', userId: alice.id });
    expect(verifyRequest({ method: 'POST', path: req!.path, headers: req!.headers, body: req!.body }, params, key.publicKeyPem)).toBeNull();
  });

  it('a 4xx answer is final; a 5xx is retried, and after five failures in a row the host waits without being asked', async () => {
    const refusing = await inbox(403);
    await expect(deliveryHandler(t.ctx).run(payload(refusing.url), job)).rejects.toBeInstanceOf(PermanentJobError);

    const failing = await inbox(500);
    const handler = deliveryHandler(t.ctx);
    for (let i = 0; i < 5; i++) await expect(handler.run(payload(failing.url), job)).rejects.toThrow(/answered 500/);
    expect(failing.requests).toHaveLength(5);
    const result = (await handler.run(payload(failing.url), job)) as { deferred: string };
    expect(failing.requests).toHaveLength(5);
    expect(new Date(result.deferred).getTime()).toBeGreaterThan(Date.now());
    expect((await queued(failing.url)).map((r) => new Date(r.run_at).toISOString())).toEqual([result.deferred]);
    // Queued again, it keeps the time it was first queued; once that is too long ago, it is dropped.
    const [again] = await queryRows<{ payload: DeliveryPayload }>(t.ctx.db, sql`SELECT payload FROM jobs WHERE queue = ${DELIVER_QUEUE} AND payload->>'inbox' = ${failing.url}`);
    expect(again!.payload.firstQueuedAt).toEqual(expect.any(String));
    const old = new Date(Date.now() - DELIVERY_MAX_AGE_MS).toISOString();
    expect(await handler.run({ ...payload(failing.url), firstQueuedAt: old }, job)).toEqual({ skipped: expect.stringMatching(/^gave up: 127\.0\.0\.1:\d+ could not be reached since /) });
    expect(await queued(failing.url)).toHaveLength(1);
    expect(failing.requests).toHaveLength(5);
  });

  it('a host at its cap waits in the queue while another host is served', async () => {
    const slow = await inbox();
    let release!: () => void;
    slow.hold = new Promise<void>((resolve) => (release = resolve));
    const fast = await inbox();
    const handler = deliveryHandler(t.ctx);
    const first = handler.run(payload(slow.url), job);
    await expect.poll(() => slow.requests.length).toBe(1);
    // FEDERATION_HOST_CONCURRENCY=1: the second delivery to the slow host is re-queued at once.
    const second = (await handler.run(payload(slow.url), job)) as { deferred: string };
    expect(second.deferred).toBeDefined();
    expect(await queued(slow.url)).toHaveLength(1);
    expect(await handler.run(payload(fast.url), job)).toEqual({ delivered: 202 });
    release();
    expect(await first).toEqual({ delivered: 202 });
  });
});
