import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removedNotice } from '@glimpse/contract';
import { pgliteExtensions, queryRows, wrapPglite } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';
import { newId } from '../../lib/ids.ts';
import { createWorker } from '../../worker.ts';
import { createTestApp, createTweet, createUser, createVideo, memoryLog, readOutbox, TEST_PASSWORD, type TestContext } from '../../../test/harness.ts';
import { call, expectError, MISSING_ID, rows } from '../../../test/http.ts';
import type { UserRow } from '../users/users.repository.ts';

let t: TestContext;
let owner: UserRow;
let reporter: UserRow;
let reporter2: UserRow;
let moderator: UserRow;
let admin: UserRow;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t.ctx, { fullName: 'Olive Owner' });
  reporter = await createUser(t.ctx, { fullName: 'Rita Reporter' });
  reporter2 = await createUser(t.ctx, { fullName: 'Ravi Reporter' });
  moderator = await createUser(t.ctx, { role: 'moderator' });
  admin = await createUser(t.ctx, { role: 'admin' });
});
afterAll(() => t.close());

const deliverMail = () => createWorker(t.ctx, memoryLog()).drain();
const mailsTo = async (u: UserRow) => (await readOutbox(t.dataDir)).filter((m) => m.to === u.email);
const report = (as: UserRow, targetKind: string, targetId: string, reason = 'spam', text?: string) =>
  call(t, 'POST', '/reports', { as, body: { targetKind, targetId, reason, ...(text ? { text } : {}) } });
const queue = async (query = '') => (await call(t, 'GET', `/moderation/reports${query}`, { as: moderator })).body.data;
const act = (as: UserRow, kind: string, id: string, action: string, body?: object) =>
  call(t, 'POST', `/moderation/targets/${kind}/${id}/${action}`, { as, body });
const logActions = async () => (await rows<{ action: string; target_id: string }>(t, sql`SELECT action, target_id FROM moderation_log`));

describe('POST /reports', () => {
  it('files a report once per reporter and target; refuses own content, unseen targets and bad input', async () => {
    const video = await createVideo(t.ctx, owner);
    const res = await report(reporter, 'video', video.id, 'harassment', 'Mean title');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ targetKind: 'video', targetId: video.id, reason: 'harassment', text: 'Mean title', state: 'open' });
    expect(res.body.data.target).toMatchObject({ label: video.title, videoId: video.id, userName: owner.userName });
    expectError(await report(reporter, 'video', video.id, 'other'), 409, 'You have already reported this');
    expect((await report(reporter2, 'video', video.id)).status).toBe(201);

    expectError(await report(owner, 'video', video.id), 400, 'You cannot report your own content');
    const draft = await createVideo(t.ctx, owner, { privacy: 'private' });
    expectError(await report(reporter, 'video', draft.id), 404);
    expectError(await report(reporter, 'tweet', MISSING_ID), 404);
    expectError(await report(reporter, 'video', video.id, 'boring'), 400);
    expectError(await report(reporter, 'planet', video.id), 400);
    expectError(await call(t, 'POST', '/reports', { body: { targetKind: 'video', targetId: video.id, reason: 'spam' } }), 401, 'Please login to report');
    const [count] = await rows<{ n: number }>(t, sql`SELECT count(*)::int AS n FROM reports WHERE target_id = ${video.id}`);
    expect(count!.n).toBe(2);
  });

  it('reports tweets, comments and channels', async () => {
    const tweet = await createTweet(t.ctx, owner);
    const video = await createVideo(t.ctx, owner);
    const comment = (await call(t, 'POST', `/comments/video/${video.id}`, { as: owner, body: { content: 'buy pills' } })).body.data._id;
    for (const [kind, id] of [['tweet', tweet.id], ['comment', comment], ['channel', owner.id]] as const) {
      expect((await report(reporter, kind, id)).status).toBe(201);
    }
    expectError(await report(owner, 'channel', owner.id), 400);
  });
});

describe('POST /reports rate limit', () => {
  it('cuts a flood of reports from one client off with RATE_LIMIT_REPORT', async () => {
    const limited = await createTestApp({ RATE_LIMITS_ENABLED: 'true', RATE_LIMIT_REPORT: '2' });
    try {
      const [who, by] = [await createUser(limited.ctx), await createUser(limited.ctx)];
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        const video = await createVideo(limited.ctx, by);
        statuses.push((await call(limited, 'POST', '/reports', { as: who, body: { targetKind: 'video', targetId: video.id, reason: 'spam' } })).status);
      }
      expect(statuses).toEqual([201, 201, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('GET /reports/mine', () => {
  it("pages the caller's own reports, newest first, with their state", async () => {
    const me = await createUser(t.ctx);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await report(me, 'video', (await createVideo(t.ctx, owner)).id)).body.data._id);
    const first = (await call(t, 'GET', '/reports/mine?limit=2', { as: me })).body.data;
    expect(first.data.map((r: { _id: string }) => r._id)).toEqual([ids[2], ids[1]]);
    const second = (await call(t, 'GET', `/reports/mine?limit=2&cursor=${first.nextCursor}`, { as: me })).body.data;
    expect(second.data.map((r: { _id: string }) => r._id)).toEqual([ids[0]]);
    expect((await call(t, 'GET', '/reports/mine', { as: reporter2 })).body.data.data.every((r: { _id: string }) => !ids.includes(r._id))).toBe(true);
    expect((await call(t, 'GET', '/reports/mine')).status).toBe(401);
  });
});

describe('take-down, appeal and restore', () => {
  it('hides a taken-down video from everyone but its owner, who sees the notice and appeals once; restore brings it back', async () => {
    const video = await createVideo(t.ctx, owner, { title: 'Zebra crossing tutorial' });
    await report(reporter, 'video', video.id, 'violent', 'Gore at 0:10');
    await report(reporter2, 'video', video.id, 'violent');

    const open = await queue('?kind=video');
    const item = open.data.find((i: { targetId: string }) => i.targetId === video.id);
    expect(item).toMatchObject({ targetKind: 'video', reportCount: 2, itemState: 'visible', owner: { _id: owner.id }, target: { label: 'Zebra crossing tutorial' } });
    expect(item.reports.map((r: { reporter: { userName: string } }) => r.reporter.userName).sort()).toEqual([reporter.userName, reporter2.userName].sort());

    expectError(await act(moderator, 'video', video.id, 'take-down', { reason: '' }), 400);
    expect((await act(moderator, 'video', video.id, 'take-down', { reason: 'Graphic violence' })).status).toBe(200);
    expectError(await act(moderator, 'video', video.id, 'take-down', { reason: 'again' }), 409);

    // A visitor learns it was removed (it was public: nothing new is told), not that it never was.
    for (const as of [undefined, reporter]) {
      expectError(await call(t, 'GET', `/videos/${video.id}`, { as }), 410, 'This video was removed by the moderators');
      const home = JSON.stringify((await call(t, 'GET', '/videos?query=zebra', { as })).body);
      expect(home).not.toContain(video.id);
    }
    const mine = (await call(t, 'GET', `/videos/${video.id}`, { as: owner })).body.data.video;
    expect(mine.takedown).toMatchObject({ reason: 'Graphic violence', appealedAt: null });
    expect(removedNotice(mine.takedown.reason)).toBe('Removed by the moderators: Graphic violence');
    expect((await call(t, 'GET', `/videos/${video.id}`, { as: reporter })).body.data?.video).toBeUndefined();

    // Reports became "actioned"; the queue's open list no longer has it.
    expect((await queue('?kind=video')).data.some((i: { targetId: string }) => i.targetId === video.id)).toBe(false);
    expect((await queue('?state=actioned')).data.some((i: { targetId: string }) => i.targetId === video.id)).toBe(true);

    expectError(await call(t, 'POST', `/takedowns/video/${video.id}/appeal`, { as: reporter, body: { text: 'please' } }), 404);
    const appeal = await call(t, 'POST', `/takedowns/video/${video.id}/appeal`, { as: owner, body: { text: 'It is a safety film' } });
    expect(appeal.status, JSON.stringify(appeal.body)).toBe(200);
    expect(appeal.body.data).toMatchObject({ appealText: 'It is a safety film' });
    expectError(await call(t, 'POST', `/takedowns/video/${video.id}/appeal`, { as: owner, body: { text: 'again' } }), 409, 'You have already appealed');
    const appealed = (await queue('?state=appealed')).data.find((i: { targetId: string }) => i.targetId === video.id);
    expect(appealed.takedown).toMatchObject({ appealText: 'It is a safety film' });

    expect((await act(moderator, 'video', video.id, 'restore')).status).toBe(200);
    expectError(await act(moderator, 'video', video.id, 'restore'), 409);
    expect((await call(t, 'GET', `/videos/${video.id}`, { as: reporter })).status).toBe(200);
    expect((await queue('?state=appealed')).data.some((i: { targetId: string }) => i.targetId === video.id)).toBe(false);
    expect((await logActions()).filter((l) => l.target_id === video.id).map((l) => l.action)).toEqual(['take_down', 'restore']);

    await deliverMail();
    expect((await mailsTo(owner)).map((m) => m.subject)).toEqual(expect.arrayContaining(['Your video was removed by the moderators', 'Your video was restored']));
    const ownerMail = (await mailsTo(owner)).find((m) => m.subject === 'Your video was removed by the moderators')!;
    expect(ownerMail.text).toContain('Graphic violence');
    expect(ownerMail.text).toContain('appeal');
    for (const r of [reporter, reporter2]) {
      expect((await mailsTo(r)).filter((m) => m.text.includes('Zebra crossing tutorial') && m.text.includes('took action'))).toHaveLength(1);
    }
  });

  it('a taken-down private video stays "not found" to others: the 410 tells nothing a visitor could not see before', async () => {
    const hidden = await createVideo(t.ctx, owner, { privacy: 'private', takenDownAt: new Date(), takedownReason: 'spam' });
    for (const as of [undefined, reporter]) expectError(await call(t, 'GET', `/videos/${hidden.id}`, { as }), 404, 'Video not found');
    expectError(await call(t, 'GET', `/videos/${MISSING_ID}`), 404, 'Video not found');
    expect((await call(t, 'GET', `/videos/${hidden.id}`, { as: owner })).body.data.video.takedown.reason).toBe('spam');
  });

  it('hides taken-down tweets and comments from others, not from their owner', async () => {
    const tweet = await createTweet(t.ctx, owner, { content: 'Hidden tweet text' });
    const video = await createVideo(t.ctx, reporter);
    const comment = (await call(t, 'POST', `/comments/video/${video.id}`, { as: owner, body: { content: 'rude comment' } })).body.data._id;
    await report(reporter, 'tweet', tweet.id);
    await report(reporter, 'comment', comment);
    expect((await act(moderator, 'tweet', tweet.id, 'take-down', { reason: 'Spam' })).status).toBe(200);
    expect((await act(moderator, 'comment', comment, 'take-down', { reason: 'Rude' })).status).toBe(200);

    expect((await call(t, 'GET', `/tweets/${tweet.id}`, { as: reporter })).status).toBe(404);
    expect(JSON.stringify((await call(t, 'GET', `/tweets/user/${owner.id}`)).body)).not.toContain(tweet.id);
    expect((await call(t, 'GET', `/tweets/${tweet.id}`, { as: owner })).body.data.tweets[0].takedown.reason).toBe('Spam');
    expect(JSON.stringify((await call(t, 'GET', `/comments/video/${video.id}`, { as: reporter })).body)).not.toContain(comment);
    const own = (await call(t, 'GET', `/comments/video/${video.id}`, { as: owner })).body.data.comments;
    expect(own.find((c: { _id: string }) => c._id === comment).takedown.reason).toBe('Rude');
    expectError(await call(t, 'POST', `/likes/tweet/${tweet.id}/like`, { as: reporter }), 404);
  });
});

describe('dismiss and delete', () => {
  it('dismisses open reports (reporters told), and deletes content for good through its own delete', async () => {
    const video = await createVideo(t.ctx, owner, { title: 'Harmless cat video' });
    await report(reporter, 'video', video.id, 'other', 'I dislike cats');
    expect((await act(moderator, 'video', video.id, 'dismiss')).status).toBe(200);
    expectError(await act(moderator, 'video', video.id, 'dismiss'), 409);
    const [state] = await rows<{ state: string }>(t, sql`SELECT state FROM reports WHERE target_id = ${video.id}`);
    expect(state!.state).toBe('dismissed');
    // A dismissed report frees the reporter to report again.
    expect((await report(reporter, 'video', video.id)).status).toBe(201);

    const tweet = await createTweet(t.ctx, owner);
    await report(reporter2, 'tweet', tweet.id);
    expect((await act(moderator, 'tweet', tweet.id, 'delete', { reason: 'Scam links' })).status).toBe(200);
    expect(await rows(t, sql`SELECT id FROM tweets WHERE id = ${tweet.id}`)).toEqual([]);
    expectError(await act(moderator, 'tweet', tweet.id, 'delete'), 404);
    expect((await logActions()).filter((l) => l.target_id === tweet.id).map((l) => l.action)).toEqual(['delete']);
    const deleted = (await queue('?state=actioned&kind=tweet')).data.find((i: { targetId: string }) => i.targetId === tweet.id);
    expect(deleted.itemState).toBe('deleted');

    await deliverMail();
    expect((await mailsTo(reporter)).some((m) => m.text.includes('Harmless cat video') && m.text.includes('stays up'))).toBe(true);
    expect((await mailsTo(owner)).some((m) => m.subject === 'Your tweet was deleted by the moderators' && m.text.includes('Scam links'))).toBe(true);
  });

  it('refuses a moderator acting on staff content; an admin may', async () => {
    const staffVideo = await createVideo(t.ctx, moderator);
    expectError(await act(await createUser(t.ctx, { role: 'moderator' }), 'video', staffVideo.id, 'take-down', { reason: 'x' }), 403);
    expect((await act(admin, 'video', staffVideo.id, 'take-down', { reason: 'x' })).status).toBe(200);
    expectError(await act(admin, 'channel', owner.id, 'take-down', { reason: 'x' }), 400);
  });
});

describe('suspension', () => {
  it('suspends an account: sessions revoked at once, login refused, channel and content hidden; reversible', async () => {
    const target = await createUser(t.ctx, { fullName: 'Sam Spammer' });
    const video = await createVideo(t.ctx, target, { title: 'Quokka parade' });
    const tweet = await createTweet(t.ctx, target);
    const login = await t.app.inject({ method: 'POST', url: '/api/v1/auths/login', payload: { email: target.email, password: TEST_PASSWORD } });
    expect(login.statusCode).toBe(200);
    await report(reporter, 'channel', target.id, 'spam');

    expectError(await call(t, 'POST', `/moderation/users/${target.id}/suspend`, { as: moderator, body: { reason: 'Spam', until: '2001-01-01T00:00:00Z' } }), 400);
    const until = new Date(Date.now() + 7 * 86_400_000).toISOString();
    expect((await call(t, 'POST', `/moderation/users/${target.id}/suspend`, { as: moderator, body: { reason: 'Spam', until } })).status).toBe(200);

    const [sessions] = await rows<{ live: number }>(t, sql`SELECT count(*)::int AS live FROM sessions WHERE user_id = ${target.id} AND revoked_at IS NULL`);
    expect(sessions!.live).toBe(0);
    expectError(await call(t, 'GET', '/users/me', { as: target }), 401);
    const again = await t.app.inject({ method: 'POST', url: '/api/v1/auths/login', payload: { email: target.email, password: TEST_PASSWORD } });
    expect(again.statusCode).toBe(403);
    expect(again.json().message).toContain('Spam');

    expect((await call(t, 'GET', `/users/channel/${target.userName}`, { as: reporter })).status).toBe(404);
    expect((await call(t, 'GET', `/videos/${video.id}`, { as: reporter })).status).toBe(404);
    expect((await call(t, 'GET', `/tweets/${tweet.id}`)).status).toBe(404);
    expect(JSON.stringify((await call(t, 'GET', '/videos?query=quokka')).body)).not.toContain(video.id);
    const [channelReport] = await rows<{ state: string }>(t, sql`SELECT state FROM reports WHERE target_id = ${target.id}`);
    expect(channelReport!.state).toBe('actioned');

    expect((await call(t, 'POST', `/moderation/users/${target.id}/unsuspend`, { as: moderator })).status).toBe(200);
    expectError(await call(t, 'POST', `/moderation/users/${target.id}/unsuspend`, { as: moderator }), 409);
    expect((await call(t, 'GET', `/videos/${video.id}`, { as: reporter })).status).toBe(200);
    expect((await call(t, 'GET', `/users/channel/${target.userName}`, { as: reporter })).status).toBe(200);
    expect((await logActions()).filter((l) => l.target_id === target.id).map((l) => l.action)).toEqual(['suspend', 'unsuspend']);

    await deliverMail();
    const mails = await mailsTo(target);
    expect(mails.find((m) => m.subject === 'Your account was suspended')!.text).toContain(until.slice(0, 10));
    expect(mails.some((m) => m.subject === 'Your account is active again')).toBe(true);
  });

  it('refuses suspending oneself, an admin, or (for a moderator) another moderator', async () => {
    const body = { reason: 'No' };
    expectError(await call(t, 'POST', `/moderation/users/${moderator.id}/suspend`, { as: moderator, body }), 400, 'You cannot suspend yourself');
    expectError(await call(t, 'POST', `/moderation/users/${admin.id}/suspend`, { as: moderator, body }), 403, 'Admins cannot be suspended');
    const mod2 = await createUser(t.ctx, { role: 'moderator' });
    expectError(await call(t, 'POST', `/moderation/users/${mod2.id}/suspend`, { as: moderator, body }), 403, 'Only an admin can suspend a moderator');
    expect((await call(t, 'POST', `/moderation/users/${mod2.id}/suspend`, { as: admin, body })).status).toBe(200);
    expectError(await call(t, 'POST', `/moderation/users/${MISSING_ID}/suspend`, { as: admin, body }), 404);
  });
});

describe('GET /moderation/log', () => {
  interface Entry {
    action: string;
    actor: { userName: string } | null;
    fromCommandLine: boolean;
    targetKind: string;
    targetId: string | null;
    target: { label: string | null; videoId: string | null; tweetId: string | null; userName: string | null };
    targetExists: boolean;
    createdAt: string;
  }
  const entries = async (): Promise<Entry[]> => (await call(t, 'GET', '/moderation/log?limit=100', { as: moderator })).body.data.data;
  const about = async (action: string, label: string) => (await entries()).filter((e) => e.action === action && e.target.label === label);

  it('names each target, with where it lives while it exists, and keeps its name once it is gone', async () => {
    const video = await createVideo(t.ctx, owner, { title: 'Suspicious giveaway' });
    await report(reporter, 'video', video.id);
    expect((await act(moderator, 'video', video.id, 'take-down', { reason: 'Scam' })).status).toBe(200);
    const [takedown] = await about('take_down', 'Suspicious giveaway');
    expect(takedown).toMatchObject({ targetKind: 'video', targetId: video.id, targetExists: true, target: { videoId: video.id, userName: owner.userName } });
    // A date and a time, to the second at least.
    expect(takedown!.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);

    const tweet = await createTweet(t.ctx, owner, { content: 'Win a free phone, click here' });
    await report(reporter, 'tweet', tweet.id);
    expect((await act(moderator, 'tweet', tweet.id, 'delete', { reason: 'Scam' })).status).toBe(200);
    const [deleted] = await about('delete', 'Win a free phone, click here');
    expect(deleted).toMatchObject({ targetKind: 'tweet', targetId: tweet.id, targetExists: false, target: { tweetId: null } });

    // The live name while it exists: a renamed video reads as it is called now.
    await rows(t, sql`UPDATE videos SET title = 'Giveaway (renamed)' WHERE id = ${video.id}`);
    expect(await about('take_down', 'Giveaway (renamed)')).toHaveLength(1);

    const member = await createUser(t.ctx, { fullName: 'Sam Suspended' });
    expect((await call(t, 'POST', `/moderation/users/${member.id}/suspend`, { as: moderator, body: { reason: 'Spam' } })).status).toBe(200);
    expect(await about('suspend', `Sam Suspended (@${member.userName})`)).toEqual([
      expect.objectContaining({ targetKind: 'channel', targetExists: true, target: expect.objectContaining({ userName: member.userName }) }),
    ]);
  });

  it("logs role changes made by an admin, not the ones that change nothing, and an admin's deletion of an account", async () => {
    const member = await createUser(t.ctx, { fullName: 'Mona Promoted' });
    const label = `Mona Promoted (@${member.userName})`;
    const promote = (role: string) => call(t, 'PATCH', `/admin/users/${member.id}/role`, { as: admin, body: { role } });
    expect((await promote('moderator')).status).toBe(200);
    expect((await promote('moderator')).status).toBe(200);
    expect((await promote('user')).status).toBe(200);
    const roleEntries = (await entries()).filter((e) => e.target.label === label);
    expect(roleEntries.map((e) => e.action)).toEqual(['role.user', 'role.moderator']);
    expect(roleEntries[0]).toMatchObject({ actor: { userName: admin.userName }, fromCommandLine: false, targetId: member.id, targetExists: true });

    expect((await call(t, 'DELETE', `/admin/users/${member.id}`, { as: admin })).status).toBe(200);
    const after = (await entries()).filter((e) => e.target.label === label);
    // The deletion names the account it removed; the entries about the account forget it (ADR 012).
    expect(after).toEqual([expect.objectContaining({ action: 'account.delete', actor: { _id: admin.id, userName: admin.userName }, targetId: null, targetExists: false })]);
    const forgotten = await rows<{ target_label: string | null }>(t, sql`SELECT target_label FROM moderation_log WHERE action LIKE 'role.%' AND target_id IS NULL`);
    expect(forgotten.length).toBeGreaterThanOrEqual(2);
    expect(forgotten.every((r) => r.target_label === null)).toBe(true);
  });

  it('does not log an owner deleting their own account', async () => {
    const leaver = await createUser(t.ctx, { fullName: 'Lee Leaving' });
    const before = (await entries()).length;
    expect((await call(t, 'DELETE', '/users/me', { as: leaver, body: { password: TEST_PASSWORD } })).status).toBe(200);
    expect((await entries()).length).toBe(before);
  });

  it('pages every action, newest first, with its actor', async () => {
    const first = (await call(t, 'GET', '/moderation/log?limit=2', { as: moderator })).body.data;
    expect(first.data).toHaveLength(2);
    expect(first.data[0]).toMatchObject({ actor: { userName: expect.any(String) }, action: expect.any(String) });
    const next = (await call(t, 'GET', `/moderation/log?limit=2&cursor=${first.nextCursor}`, { as: moderator })).body.data;
    expect(next.data[0]._id).not.toBe(first.data[1]._id);
    expect(Date.parse(next.data[0].createdAt)).toBeLessThanOrEqual(Date.parse(first.data[1].createdAt));
  });
});

it('migration 1030 names the entries already there whose target exists', async () => {
  const database = wrapPglite(await PGlite.create({ extensions: pgliteExtensions }));
  try {
    await migrate(database, { before: '1030' });
    const [userId, videoId, goneId] = [newId(), newId(), newId()];
    await database.db.execute(sql`INSERT INTO users (id, full_name, user_name, email, password_hash) VALUES (${userId}, 'Old Owner', 'oldowner', 'old@example.com', 'x')`);
    await database.db.execute(sql`INSERT INTO videos (id, owner_id, title) VALUES (${videoId}, ${userId}, 'Old title')`);
    await database.db.execute(
      sql`INSERT INTO moderation_log (id, target_kind, target_id, action) VALUES (${newId()}, 'video', ${videoId}, 'take_down'), (${newId()}, 'channel', ${userId}, 'suspend'), (${newId()}, 'tweet', ${goneId}, 'delete')`,
    );
    await migrate(database);
    const labels = await queryRows<{ action: string; target_label: string | null; from_cli: boolean }>(database.db, sql`SELECT action, target_label, from_cli FROM moderation_log ORDER BY action`);
    expect(labels).toEqual([
      { action: 'delete', target_label: null, from_cli: false },
      { action: 'suspend', target_label: 'Old Owner (@oldowner)', from_cli: false },
      { action: 'take_down', target_label: 'Old title', from_cli: false },
    ]);
  } finally {
    await database.close();
  }
}, 180_000); // every migration on a fresh PGlite: slow on a busy machine
