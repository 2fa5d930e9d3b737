import { adminMessages } from '@glimpse/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, createVideo, type TestContext } from '../../../test/harness.ts';
import { call, expectError, rows } from '../../../test/http.ts';
import type { UserRow } from '../users/users.repository.ts';

let t: TestContext;
let admin: UserRow;
let moderator: UserRow;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.ctx, { role: 'admin', fullName: 'Root Admin' });
  moderator = await createUser(t.ctx, { role: 'moderator' });
});
afterAll(() => t.close());

describe('GET admin/overview', () => {
  it('counts accounts by state, videos by status and the transcode queue, and lists failed videos with their reason', async () => {
    const before = (await call(t, 'GET', '/admin/overview', { as: moderator })).body.data;
    const owner = await createUser(t.ctx);
    await createUser(t.ctx, { state: 'pending_approval' });
    await createUser(t.ctx, { state: 'suspended' });
    // A suspension that has ended does not count.
    await createUser(t.ctx, { state: 'suspended', suspendedUntil: new Date(Date.now() - 1000) });
    await createVideo(t.ctx, owner);
    await createVideo(t.ctx, owner, { status: 'processing' });
    const failed = await createVideo(t.ctx, owner, { status: 'failed', failureReason: 'The file has no video stream', title: 'Broken' });
    await rows(t, sql`INSERT INTO jobs (id, queue, payload, status) VALUES (gen_random_uuid(), 'transcode', '{}', 'queued'), (gen_random_uuid(), 'transcode', '{}', 'running')`);

    const res = await call(t, 'GET', '/admin/overview', { as: moderator });
    expect(res.status).toBe(200);
    const now = res.body.data;
    expect(now.users.total - before.users.total).toBe(4);
    expect(now.users.newThisWeek - before.users.newThisWeek).toBe(4);
    expect(now.users.pendingApproval - before.users.pendingApproval).toBe(1);
    expect(now.users.suspended - before.users.suspended).toBe(1);
    expect(now.videos).toEqual({
      total: before.videos.total + 3,
      ready: before.videos.ready + 1,
      processing: before.videos.processing + 1,
      failed: before.videos.failed + 1,
    });
    expect(now.storage.bytes).toBeGreaterThanOrEqual(0);
    await rows(t, sql`UPDATE users SET storage_bytes = 5000000 WHERE id = ${owner.id}`);
    expect((await call(t, 'GET', '/admin/overview', { as: moderator })).body.data.storage.bytes - now.storage.bytes).toBe(5_000_000);
    expect(now.transcodes.queued - before.transcodes.queued).toBe(1);
    // Two reports on one video are one item waiting; an appeal waits apart.
    const reporter = await createUser(t.ctx);
    const reported = await createVideo(t.ctx, owner);
    for (const by of [reporter, moderator]) {
      expect((await call(t, 'POST', '/reports', { as: by, body: { targetKind: 'video', targetId: reported.id, reason: 'spam' } })).status).toBe(201);
    }
    await rows(t, sql`UPDATE videos SET taken_down_at = now(), takedown_reason = 'Spam', appealed_at = now(), appeal_text = 'Mine' WHERE id = ${failed.id}`);
    const after = (await call(t, 'GET', '/admin/overview', { as: moderator })).body.data;
    expect(after.moderation.openReports - now.moderation.openReports).toBe(1);
    expect(after.moderation.appeals - now.moderation.appeals).toBe(1);
    expect(now.transcodes.running - before.transcodes.running).toBe(1);
    expect(now.transcodes.failed[0]).toMatchObject({ videoId: failed.id, title: 'Broken', ownerUserName: owner.userName, reason: 'The file has no video stream' });
  });
});

describe('POST admin/transcodes/:videoId/retry', () => {
  it('puts a failed video back to processing and queues one transcode for it', async () => {
    const owner = await createUser(t.ctx);
    const video = await createVideo(t.ctx, owner, { status: 'failed', failureReason: 'stalled', sourceKey: `originals/${owner.id}/x.mp4` });
    const res = await call(t, 'POST', `/admin/transcodes/${video.id}/retry`, { as: moderator });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe(adminMessages.transcodeRetried);
    const [row] = await rows<{ status: string; failure_reason: string | null }>(t, sql`SELECT status, failure_reason FROM videos WHERE id = ${video.id}`);
    expect(row).toEqual({ status: 'processing', failure_reason: null });
    const jobs = await rows<{ owner_id: string }>(t, sql`SELECT owner_id FROM jobs WHERE queue = 'transcode' AND payload->>'videoId' = ${video.id} AND status = 'queued'`);
    expect(jobs).toEqual([{ owner_id: owner.id }]);
    // Once processing, a second click is refused and queues nothing more.
    expectError(await call(t, 'POST', `/admin/transcodes/${video.id}/retry`, { as: moderator }), 409, adminMessages.onlyFailedRetry);
  });

  it('refuses a video whose original is gone, and an unknown video', async () => {
    const owner = await createUser(t.ctx);
    const video = await createVideo(t.ctx, owner, { status: 'failed', sourceKey: null });
    expectError(await call(t, 'POST', `/admin/transcodes/${video.id}/retry`, { as: admin }), 409, adminMessages.sourceGone);
    expectError(await call(t, 'POST', '/admin/transcodes/01900000-0000-7000-8000-000000000000/retry', { as: admin }), 404);
  });
});

describe('GET admin/users', () => {
  it('finds accounts by part of a name or email (wildcards taken literally), filters by state and pages', async () => {
    const tag = `zq${Date.now()}`;
    const a = await createUser(t.ctx, { fullName: `Alice ${tag}` });
    const b = await createUser(t.ctx, { email: `${tag}_b@example.com`, state: 'suspended', stateReason: 'Spam' });
    await createVideo(t.ctx, a);
    const found = (await call(t, 'GET', `/admin/users?q=${tag}&limit=1`, { as: moderator })).body.data;
    expect(found.users).toHaveLength(1);
    expect(found.users[0]).toMatchObject({ _id: b.id, state: 'suspended', stateReason: 'Spam', role: 'user' });
    const next = (await call(t, 'GET', `/admin/users?q=${tag}&limit=1&cursor=${found.nextCursor}`, { as: moderator })).body.data;
    expect(next.users.map((u: { _id: string }) => u._id)).toEqual([a.id]);
    expect(next.users[0].videos).toBe(1);
    expect(next.hasNextPage).toBe(false);
    const suspended = (await call(t, 'GET', `/admin/users?q=${tag}&state=suspended`, { as: moderator })).body.data.users;
    expect(suspended.map((u: { _id: string }) => u._id)).toEqual([b.id]);
    expect((await call(t, 'GET', '/admin/users?q=%25', { as: moderator })).body.data.users).toEqual([]);
  });
});

describe('PATCH admin/users/:userId/role', () => {
  it('lets an admin appoint a moderator, who then has the staff rights at their next request', async () => {
    const u = await createUser(t.ctx);
    expect((await call(t, 'GET', '/admin/overview', { as: u })).status).toBe(403);
    const res = await call(t, 'PATCH', `/admin/users/${u.id}/role`, { as: admin, body: { role: 'moderator' } });
    expect(res.body.data.user).toEqual({ _id: u.id, role: 'moderator' });
    expect((await call(t, 'GET', '/admin/overview', { as: u })).status).toBe(200);
  });

  it('refuses an admin changing their own role, and a role that does not exist', async () => {
    expectError(await call(t, 'PATCH', `/admin/users/${admin.id}/role`, { as: admin, body: { role: 'user' } }), 409, adminMessages.ownRole);
    const u = await createUser(t.ctx);
    expectError(await call(t, 'PATCH', `/admin/users/${u.id}/role`, { as: admin, body: { role: 'owner' } }), 400);
  });
});
