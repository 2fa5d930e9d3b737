import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultEmailModes } from '@glimpse/contract';
import { createWorker } from '../../worker.ts';
import { JobsRepository } from '../../jobs/jobs.repository.ts';
import { Worker } from '../../jobs/worker.ts';
import { createMailer } from '../../mail/mailer.ts';
import { loadConfig } from '../../config.ts';
import { createTestApp, createUser, createVideo, memoryLog, readOutbox, TEST_ENV, type TestContext } from '../../../test/harness.ts';
import { call, expectError, rows } from '../../../test/http.ts';
import { startSmtp, type TestSmtp } from '../../../test/smtp.ts';
import type { UserRow } from '../users/users.repository.ts';
import { eventJobs } from '../../events/dispatch.ts';
import { notificationEvents } from './notification-events.ts';
import { NOTIFICATION_MAIL_QUEUE } from './notification-mail.job.ts';
import { UnsubscribeTokens } from './unsubscribe-token.ts';

let t: TestContext;
let smtp: TestSmtp;

beforeAll(async () => {
  t = await createTestApp();
  smtp = await startSmtp();
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const drain = () => createWorker(t.ctx, memoryLog()).drain();
const mailsTo = async (u: UserRow) => (await readOutbox(t.dataDir)).filter((m) => m.to === u.email);
const settingsOf = async (u: UserRow) => (await call(t, 'GET', '/notifications/settings', { as: u })).body.data.settings;
const setMode = async (u: UserRow, body: object) => {
  const res = await call(t, 'PATCH', '/notifications/settings', { as: u, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.settings;
};
const comment = async (as: UserRow, videoId: string, content: string) => {
  const res = await call(t, 'POST', `/comments/video/${videoId}`, { as, body: { content } });
  expect(res.status).toBe(201);
  return res.body.data._id as string;
};
const tokens = () => new UnsubscribeTokens(t.config.jwtSecret);
const unsubscribe = (token: string, form = true) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/notifications/unsubscribe?token=${encodeURIComponent(token)}`,
    ...(form ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' } : {}),
  });

describe('notification settings API', () => {
  it('asks visitors to log in', async () => {
    expectError(await call(t, 'GET', '/notifications/settings'), 401, 'Please login to see your notifications');
    expectError(await call(t, 'PATCH', '/notifications/settings', { body: { comment: 'off' } }), 401, 'Please login to see your notifications');
  });

  it('refuses unknown types and modes', async () => {
    const ada = await createUser(t.ctx);
    expectError(await call(t, 'PATCH', '/notifications/settings', { as: ada, body: { moderation: 'off' } }), 400);
    expectError(await call(t, 'PATCH', '/notifications/settings', { as: ada, body: { nonsense: 'off' } }), 400);
    expectError(await call(t, 'PATCH', '/notifications/settings', { as: ada, body: { comment: 'weekly' } }), 400);
    expectError(await call(t, 'PATCH', '/notifications/settings', { as: ada, body: { comment: null } }), 400);
    expect(await settingsOf(ada)).toEqual(defaultEmailModes);
  });

  it('answers every type with the defaults filled in, and saves a partial change', async () => {
    const ada = await createUser(t.ctx);
    const res = await call(t, 'GET', '/notifications/settings', { as: ada });
    expect(res.body).toMatchObject({ statusCode: 200, success: true, message: 'Notification settings fetched', data: { settings: defaultEmailModes } });
    const saved = await call(t, 'PATCH', '/notifications/settings', { as: ada, body: { comment: 'digest', videoProcessed: 'instant' } });
    expect(saved.body).toMatchObject({ message: 'Notification settings saved', data: { settings: { ...defaultEmailModes, comment: 'digest', videoProcessed: 'instant' } } });
    expect(await settingsOf(ada)).toEqual({ ...defaultEmailModes, comment: 'digest', videoProcessed: 'instant' });
    // Another user's settings are their own.
    expect(await settingsOf(await createUser(t.ctx))).toEqual(defaultEmailModes);
  });
});

describe('mailing by preference', () => {
  it('off: not mailed; instant: one mail naming what happened, linking to it, with a way to turn it off', async () => {
    const owner = await createUser(t.ctx, { fullName: 'Owner <Ona>' });
    const fan = await createUser(t.ctx, { fullName: 'Fan & Friend' });
    const video = await createVideo(t.ctx, owner, { title: 'Trains <b>fast</b>' });
    await setMode(owner, { comment: 'off' });
    await comment(fan, video.id, 'Not mailed');
    await drain();
    expect(await mailsTo(owner)).toEqual([]);

    await setMode(owner, { comment: 'instant' });
    await comment(fan, video.id, 'Lovely <script>alert(1)</script>');
    await drain();
    await drain();
    const [mail, ...rest] = await mailsTo(owner);
    expect(rest).toEqual([]);
    expect(mail!.subject).toBe('Fan & Friend commented on "Trains <b>fast</b>": Lovely <script>alert(1)</script>');
    expect(mail!.text).toContain(`http://glimpse.test/video/${video.id}`);
    // User text is escaped in the HTML; no outside images, fonts or style sheets.
    expect(mail!.html).toContain('Lovely &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail!.html).toContain('Owner &lt;Ona&gt;');
    expect(mail!.html).not.toMatch(/<script|<img|<link|@import|url\(/i);
    expect(mail!.html).toContain(`href="http://glimpse.test/video/${video.id}"`);
    const token = tokens().sign(owner.id, 'comment');
    expect(mail!.headers['list-unsubscribe']).toBe(`<http://glimpse.test/api/v1/notifications/unsubscribe?token=${encodeURIComponent(token)}>`);
    expect(mail!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail!.text).toContain(`http://glimpse.test/unsubscribe?token=${encodeURIComponent(token)}`);
    const [row] = await rows<{ emailed: boolean }>(t, sql`SELECT emailed_at IS NOT NULL AS emailed FROM notifications WHERE user_id = ${owner.id} AND email_mode = 'instant'`);
    expect(row!.emailed).toBe(true);
  });

  it('instant: each row is mailed once while two workers drain at once', async () => {
    const channel = await createUser(t.ctx);
    const fans = await Promise.all(Array.from({ length: 12 }, () => createUser(t.ctx)));
    for (const fan of fans) {
      await setMode(fan, { newVideo: 'instant' });
      await call(t, 'POST', `/subscriptions/toggle/${channel.id}`, { as: fan });
    }
    const video = await createVideo(t.ctx, channel, { privacy: 'private' });
    await call(t, 'PATCH', `/videos/${video.id}/publish`, { as: channel, body: { isPublished: true } });
    // Fan out only, so the rows wait; then two mail runs on two workers at once.
    await new Worker(t.ctx.db, eventJobs(t.ctx.db, [notificationEvents(t.ctx)]).handlers!, { log: memoryLog() }).drain();
    const jobs = new JobsRepository(t.ctx.db);
    await jobs.enqueue(NOTIFICATION_MAIL_QUEUE, {});
    await Promise.all([drain(), drain()]);
    for (const fan of fans) expect((await mailsTo(fan)).map((m) => m.subject), fan.email).toEqual([`${channel.fullName} uploaded "${video.title}"`]);
  });

  it('only active accounts with a verified address are mailed', async () => {
    const owner = await createUser(t.ctx);
    const [unverified, suspended] = [await createUser(t.ctx, { verified: false }), await createUser(t.ctx)];
    const video = await createVideo(t.ctx, owner);
    const parent = await comment(unverified, video.id, 'First');
    const parent2 = await comment(suspended, video.id, 'Second');
    await rows(t, sql`UPDATE users SET state = 'suspended' WHERE id = ${suspended.id}`);
    for (const id of [parent, parent2]) await call(t, 'POST', `/comments/video/${video.id}/${id}`, { as: owner, body: { content: 'Thanks' } });
    await drain();
    expect(await mailsTo(unverified)).toEqual([]);
    expect(await mailsTo(suspended)).toEqual([]);
    const [left] = await rows<{ n: number }>(t, sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${unverified.id} AND emailed_at IS NULL AND email_mode IS NOT NULL`);
    expect(left!.n).toBe(0);
  });

  it('digest: one mail listing several, none again within 24 hours, the next after; one read in the app is left out', async () => {
    const owner = await createUser(t.ctx);
    const fan = await createUser(t.ctx, { fullName: 'Dee Gest' });
    const video = await createVideo(t.ctx, owner, { title: 'Daily' });
    await setMode(owner, { comment: 'digest' });
    await comment(fan, video.id, 'One');
    await comment(fan, video.id, 'Two');
    await comment(fan, video.id, 'Three at once');
    // The first run fans out; the next one's maintenance sees the digest due and queues a mail run.
    await drain();
    expect(await mailsTo(owner)).toEqual([]);
    await drain();
    const digests = (await mailsTo(owner)).filter((m) => m.subject.includes('new notification'));
    expect(digests).toHaveLength(1);
    expect(digests[0]!.subject).toBe('3 new notifications on Glimpse');
    for (const excerpt of ['One', 'Two', 'Three at once']) expect(digests[0]!.text).toContain(`Dee Gest commented on "Daily": ${excerpt}`);
    expect(digests[0]!.headers['list-unsubscribe']).toContain(encodeURIComponent(tokens().sign(owner.id, 'digest')));

    await comment(fan, video.id, 'Three');
    const unread = await comment(fan, video.id, 'Seen in the app');
    await drain();
    await drain();
    expect(await mailsTo(owner)).toHaveLength(1);
    const [seen] = await rows<{ id: string }>(t, sql`SELECT id FROM notifications WHERE user_id = ${owner.id} AND subject ->> 'commentId' = ${unread}`);
    await call(t, 'PATCH', `/notifications/${seen!.id}/read`, { as: owner });

    await rows(t, sql`UPDATE notification_digests SET sent_at = now() - interval '25 hours' WHERE user_id = ${owner.id}`);
    await drain();
    const [, second, ...more] = await mailsTo(owner);
    expect(more).toEqual([]);
    expect(second!.subject).toBe('1 new notification on Glimpse');
    expect(second!.text).toContain('Dee Gest commented on "Daily": Three\n');
    expect(second!.text).not.toContain('Seen in the app');
    const [pending] = await rows<{ n: number }>(t, sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${owner.id} AND email_mode = 'digest' AND emailed_at IS NULL`);
    expect(pending!.n).toBe(0);
  });
});

describe('SMTP', () => {
  it('a failing SMTP loses nothing: the rows wait and go out over SMTP once it works', async () => {
    const owner = await createUser(t.ctx);
    const fan = await createUser(t.ctx);
    const video = await createVideo(t.ctx, owner, { title: 'Over the wire' });
    const good = t.ctx.mailer;
    const smtpMailer = (url: string) => createMailer(loadConfig({ ...TEST_ENV, DATA_DIR: t.dataDir, SMTP_URL: url }), t.ctx.settings);
    t.ctx.mailer = smtpMailer(smtp.url.replace(`:${smtp.password}@`, ':wrong@'));
    try {
      await comment(fan, video.id, 'Hello over SMTP');
      const log = memoryLog();
      await createWorker(t.ctx, log).drain();
      const [row] = await rows<{ emailed: boolean; claimed: boolean }>(
        t,
        sql`SELECT emailed_at IS NOT NULL AS emailed, mail_claimed_at IS NOT NULL AS claimed FROM notifications WHERE user_id = ${owner.id}`,
      );
      expect(row).toEqual({ emailed: false, claimed: false });
      const [job] = await rows<{ status: string; last_error: string }>(t, sql`SELECT status, last_error FROM jobs WHERE queue = ${NOTIFICATION_MAIL_QUEUE} ORDER BY created_at DESC LIMIT 1`);
      expect(job!.status).toBe('queued');
      expect(job!.last_error).toMatch(/Invalid login/);

      t.ctx.mailer = smtpMailer(smtp.url);
      const before = smtp.received.length;
      await rows(t, sql`UPDATE jobs SET run_at = now() WHERE queue = ${NOTIFICATION_MAIL_QUEUE} AND status = 'queued'`);
      await drain();
      const mail = await smtp.next(before);
      expect(mail.rcptTo).toEqual([owner.email]);
      expect(mail.subject).toContain('Hello over SMTP');
      expect(mail.html).toContain('Hello over SMTP');
      expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
      expect(mail.headers['list-unsubscribe']).toMatch(/^<http:\/\/glimpse\.test\/api\/v1\/notifications\/unsubscribe\?token=v1\./);
      expect(smtp.received).toHaveLength(before + 1);
    } finally {
      t.ctx.mailer = good;
    }
  });
});

describe('unsubscribe', () => {
  it('refuses a missing, forged or malformed token', async () => {
    const ada = await createUser(t.ctx);
    const real = tokens().sign(ada.id, 'comment');
    expectError({ status: (await unsubscribe('')).statusCode, body: (await unsubscribe('')).json() }, 400);
    for (const bad of [real.slice(0, -2) + 'xx', real.replace('.comment.', '.reply.'), 'v1.nope.comment.abc', `v2${real.slice(2)}`, `${real}.more`]) {
      const res = await unsubscribe(bad);
      expectError({ status: res.statusCode, body: res.json() }, 400, 'This unsubscribe link is not valid');
    }
    const forged = new UnsubscribeTokens('another-secret-another-secret-another').sign(ada.id, 'comment');
    expectError({ status: (await unsubscribe(forged)).statusCode, body: (await unsubscribe(forged)).json() }, 400, 'This unsubscribe link is not valid');
    expect(await settingsOf(ada)).toEqual(defaultEmailModes);
  });

  it('the one-click POST (form-encoded, no login) turns off exactly that type; the web page GET changes nothing', async () => {
    const ada = await createUser(t.ctx);
    const token = tokens().sign(ada.id, 'reply');
    const page = await t.app.inject({ method: 'GET', url: `/unsubscribe?token=${encodeURIComponent(token)}` });
    expect(page.statusCode).toBeLessThan(500);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/notifications/unsubscribe?token=${encodeURIComponent(token)}` })).statusCode).toBe(404);
    expect(await settingsOf(ada)).toEqual(defaultEmailModes);

    const res = await unsubscribe(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: 'You will no longer get these mails', data: { scope: 'reply', types: ['reply'] } });
    expect(await settingsOf(ada)).toEqual({ ...defaultEmailModes, reply: 'off' });
    // Again (a second click, or the web page after the mail client): the same answer.
    expect((await unsubscribe(token, false)).statusCode).toBe(200);
  });

  it("the digest's link turns off every type mailed as the digest, and stops rows already waiting", async () => {
    const owner = await createUser(t.ctx);
    const fan = await createUser(t.ctx);
    await setMode(owner, { comment: 'digest' });
    const video = await createVideo(t.ctx, owner);
    await comment(fan, video.id, 'Waiting for the digest');
    await new Worker(t.ctx.db, eventJobs(t.ctx.db, [notificationEvents(t.ctx)]).handlers!, { log: memoryLog() }).drain();
    const res = await unsubscribe(tokens().sign(owner.id, 'digest'));
    expect(res.json().data).toEqual({ scope: 'digest', types: ['newVideo', 'comment', 'newSubscriber'] });
    expect(await settingsOf(owner)).toEqual({ ...defaultEmailModes, newVideo: 'off', comment: 'off', newSubscriber: 'off' });
    await drain();
    expect(await mailsTo(owner)).toEqual([]);
  });
});
