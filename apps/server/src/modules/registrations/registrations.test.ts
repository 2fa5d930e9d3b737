import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messages, registrationMessages, type InstanceSettingsPatch } from '@glimpse/contract';
import { createTestApp, createUser, lastMailLink, readOutbox, TEST_PASSWORD, type TestContext } from '../../../test/harness.ts';
import { call, expectError, MISSING_ID, rows } from '../../../test/http.ts';
import { UsersRepository, type UserRow } from '../users/users.repository.ts';
import { signupRefusal } from './signup-policy.ts';

let t: TestContext;
let moderator: UserRow;
/** The moderation log's rows about one account (ADR 012). */
const logged = (userId: string) =>
  rows<{ action: string; actor_id: string; reason: string }>(t, sql`SELECT action, actor_id, reason FROM moderation_log WHERE target_id = ${userId}`);
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAIL: 'operator@glimpse.test' });
  moderator = await createUser(t.ctx, { role: 'moderator' });
});
afterAll(() => t.close());
afterEach(() => settings({ registrationMode: 'open', signupAllowedDomains: [], signupBlockedDomains: [] }));

let seq = 0;
const emailAt = (domain: string) => `person${++seq}.${Date.now()}@${domain}`;
const settings = (patch: InstanceSettingsPatch) => t.ctx.settings.update(patch);
const register = (email: string, extra: object = {}) => call(t, 'POST', '/auths/register', { body: { fullName: 'Ren Ito', email, password: TEST_PASSWORD, ...extra } });
const login = (email: string) => call(t, 'POST', '/auths/login', { body: { email, password: TEST_PASSWORD } });
const mailsTo = async (email: string) => (await readOutbox(t.dataDir)).filter((m) => m.to === email);
const account = (email: string) => new UsersRepository(t.ctx.db).findByEmail(email);
async function verify(email: string) {
  const token = await lastMailLink(t.dataDir, 'email-verification', email);
  expect((await call(t, 'GET', `/auths/email-verification?token=${token}`)).status).toBe(200);
}

describe('registration modes', () => {
  it('closed: refuses every sign-up with a 403 and creates nothing, mails nothing', async () => {
    await settings({ registrationMode: 'closed' });
    const email = emailAt('example.com');
    expectError(await register(email), 403, registrationMessages.closed);
    expect(await account(email)).toBeUndefined();
    expect(await mailsTo(email)).toEqual([]);
  });

  it("closed: still lets the operator's ADMIN_EMAIL create its account", async () => {
    await settings({ registrationMode: 'closed', signupAllowedDomains: ['example.org'] });
    expect((await register('operator@glimpse.test')).status).toBe(201);
    expect(await account('operator@glimpse.test')).toMatchObject({ state: 'active' });
  });

  it('open: the account is active and the answer is the spec message', async () => {
    const email = emailAt('example.com');
    const res = await register(email);
    expect(res.status).toBe(201);
    expect(res.body.message).toBe(messages.registered);
    expect(await account(email)).toMatchObject({ state: 'active', registrationReason: null });
  });

  it('approval: the account waits, may verify its email but not log in, and the answer says it will be reviewed', async () => {
    await settings({ registrationMode: 'approval' });
    const email = emailAt('example.com');
    const res = await register(email, { reason: 'I make woodworking videos.' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe(registrationMessages.pendingApproval);
    expect(await account(email)).toMatchObject({ state: 'pending_approval', registrationReason: 'I make woodworking videos.', emailVerifiedAt: null });
    // Unverified: the login asks for the verification first (and mails a fresh link).
    expectError(await login(email), 403, messages.emailNotVerified);
    await verify(email);
    expect((await account(email))!.emailVerifiedAt).not.toBeNull();
    expectError(await login(email), 403, messages.accountPendingApproval);
  });

  it("approval: the spec's register body (no reason) keeps working", async () => {
    await settings({ registrationMode: 'approval' });
    const email = emailAt('example.com');
    expect((await register(email)).status).toBe(201);
    expect(await account(email)).toMatchObject({ state: 'pending_approval', registrationReason: null });
  });
});

describe('signup email domains', () => {
  it('only the allowed domains and their subdomains may register, in any case', async () => {
    await settings({ signupAllowedDomains: ['uni.example'] });
    expect((await register(emailAt('uni.example'))).status).toBe(201);
    expect((await register(emailAt('Mail.UNI.example'))).status).toBe(201);
    for (const domain of ['other.example', 'notuni.example', 'uni.example.evil.com']) {
      const email = emailAt(domain);
      expectError(await register(email), 403, registrationMessages.domainRefused);
      expect(await account(email.toLowerCase())).toBeUndefined();
    }
  });

  it('blocked domains and their subdomains are refused; others may register', async () => {
    await settings({ signupBlockedDomains: ['spam.example'] });
    expectError(await register(emailAt('SPAM.example')), 403, registrationMessages.domainRefused);
    expectError(await register(emailAt('a.spam.example')), 403, registrationMessages.domainRefused);
    expect((await register(emailAt('nospam.example'))).status).toBe(201);
  });

  it('the policy: blocked wins over allowed; an empty allowed list allows every domain', () => {
    const base = { registrationMode: 'open' as const, signupAllowedDomains: [], signupBlockedDomains: [] };
    expect(signupRefusal(base, 'a@any.where')).toBeNull();
    expect(signupRefusal({ ...base, signupAllowedDomains: ['x.org'], signupBlockedDomains: ['bad.x.org'] }, 'a@bad.x.org')?.message).toBe(registrationMessages.domainRefused);
    expect(signupRefusal({ ...base, signupAllowedDomains: ['x.org'] }, 'a@good.x.org')).toBeNull();
  });
});

async function pendingAccount(reason?: string) {
  await settings({ registrationMode: 'approval' });
  const email = emailAt('example.com');
  expect((await register(email, reason ? { reason } : {})).status).toBe(201);
  await settings({ registrationMode: 'open' });
  return (await account(email))!;
}

describe('the registrations queue', () => {
  it('lists pending accounts oldest first, page by page with the cursor, with what the moderators need', async () => {
    const first = await pendingAccount('Please let me in');
    const second = await pendingAccount();
    const third = await pendingAccount();
    await verify(second.email);
    await createUser(t.ctx, { state: 'suspended' });
    const seen: { _id: string }[] = [];
    let res = await call(t, 'GET', '/moderation/registrations?limit=2', { as: moderator });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(registrationMessages.listed);
    seen.push(...res.body.data.data);
    expect(res.body.data.hasNextPage).toBe(true);
    for (let guard = 0; res.body.data.nextCursor && guard < 20; guard++) {
      res = await call(t, 'GET', `/moderation/registrations?limit=2&cursor=${res.body.data.nextCursor}`, { as: moderator });
      seen.push(...res.body.data.data);
    }
    const ids = seen.map((r) => r._id);
    expect(ids.filter((id) => [first.id, second.id, third.id].includes(id))).toEqual([first.id, second.id, third.id]);
    expect(new Set(ids).size).toBe(ids.length);
    const entry = (id: string) => seen.find((r) => r._id === id);
    expect(entry(first.id)).toEqual({
      _id: first.id,
      fullName: 'Ren Ito',
      userName: first.userName,
      email: first.email,
      emailVerified: false,
      createdAt: first.createdAt.toISOString(),
      reason: 'Please let me in',
    });
    expect(entry(second.id)).toMatchObject({ emailVerified: true, reason: null });
  });

  it('approve: the account becomes active, gets the approval mail with the login link, and logs in', async () => {
    const pending = await pendingAccount();
    await verify(pending.email);
    const res = await call(t, 'POST', `/moderation/registrations/${pending.id}/approve`, { as: moderator });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe(registrationMessages.approved);
    expect(await account(pending.email)).toMatchObject({ state: 'active' });
    const mail = (await mailsTo(pending.email)).at(-1)!;
    expect(mail.subject).toBe('Your account on Glimpse was approved');
    expect(mail.text).toContain('http://glimpse.test/login');
    expect((await login(pending.email)).status).toBe(200);
    // Acting twice: it is no longer pending.
    expectError(await call(t, 'POST', `/moderation/registrations/${pending.id}/approve`, { as: moderator }), 404, registrationMessages.notFound);
    expect(await logged(pending.id)).toEqual([{ action: 'registration.approve', actor_id: moderator.id, reason: '' }]);
  });

  it('reject: mails the reason, removes the account, and the email may register again', async () => {
    const pending = await pendingAccount();
    const reason = 'This instance is for the chess club.\nAsk at the club for an invitation.';
    const res = await call(t, 'POST', `/moderation/registrations/${pending.id}/reject`, { as: moderator, body: { reason } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe(registrationMessages.rejected);
    expect(await account(pending.email)).toBeUndefined();
    const mail = (await mailsTo(pending.email)).at(-1)!;
    expect(mail.subject).toBe('Your registration on Glimpse was not approved');
    expect(mail.text).toContain('This instance is for the chess club.');
    expect(mail.text).toContain('Ask at the club for an invitation.');
    expect((await register(pending.email)).status).toBe(201);
    expect(await logged(pending.id)).toEqual([{ action: 'registration.reject', actor_id: moderator.id, reason }]);
  });

  it('reject needs a reason of at most 1000 characters; a refusal changes nothing', async () => {
    const pending = await pendingAccount();
    const before = (await mailsTo(pending.email)).length;
    for (const body of [{}, { reason: '   ' }, { reason: 'x'.repeat(1001) }]) {
      expectError(await call(t, 'POST', `/moderation/registrations/${pending.id}/reject`, { as: moderator, body }), 400);
    }
    expect(await account(pending.email)).toMatchObject({ state: 'pending_approval' });
    expect(await mailsTo(pending.email)).toHaveLength(before);
  });

  it('acts only on pending accounts: active, suspended and unknown ids are 404 and stay as they were', async () => {
    const active = await createUser(t.ctx);
    const suspended = await createUser(t.ctx, { state: 'suspended', stateReason: 'spam' });
    for (const id of [active.id, suspended.id, MISSING_ID]) {
      expectError(await call(t, 'POST', `/moderation/registrations/${id}/approve`, { as: moderator }), 404, registrationMessages.notFound);
      expectError(await call(t, 'POST', `/moderation/registrations/${id}/reject`, { as: moderator, body: { reason: 'no' } }), 404, registrationMessages.notFound);
    }
    expect(await account(active.email)).toMatchObject({ state: 'active' });
    expect(await account(suspended.email)).toMatchObject({ state: 'suspended' });
    expectError(await call(t, 'POST', '/moderation/registrations/not-an-id/approve', { as: moderator }), 400);
  });
});
