import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clipJob } from '@glimpse/media';
import { instanceMessages } from '@glimpse/contract';
import { bearer, createTestApp, createUser, readOutbox, testMedia, uploadVideo, type TestContext } from '../../test/harness.ts';
import { call, expectError } from '../../test/http.ts';
import { SettingsRepository } from './settings.repository.ts';
import { defaultSettings, SettingsService } from './settings.service.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ MAX_VIDEO_MINUTES: '90' });
});
afterAll(() => t.close());

describe('the settings service', () => {
  it('starts from the defaults, with MAX_VIDEO_MINUTES as the duration limit', async () => {
    const settings = await t.ctx.settings.get();
    expect(settings).toEqual(defaultSettings(t.config));
    expect(settings).toMatchObject({ name: 'Glimpse', registrationMode: 'open', maxVideoMinutes: 90, quotaBytes: null, commentsEnabledByDefault: true });
  });

  it('keeps what an admin changed over the defaults, and other processes see it once their copy is stale', async () => {
    const other = new SettingsService(t.ctx.db, defaultSettings(t.config));
    expect((await other.get()).name).toBe('Glimpse');
    const changed = await t.ctx.settings.update({ name: 'Tube Club', registrationMode: 'approval' });
    expect(changed).toMatchObject({ name: 'Tube Club', registrationMode: 'approval', maxVideoMinutes: 90 });
    await t.ctx.settings.update({ quotaBytes: 5_000_000_000 });
    expect(await t.ctx.settings.get()).toMatchObject({ name: 'Tube Club', quotaBytes: 5_000_000_000 });
    // A fresh process reads the stored row.
    expect(await new SettingsService(t.ctx.db, defaultSettings(t.config)).get()).toMatchObject({ name: 'Tube Club', quotaBytes: 5_000_000_000 });
  });

  // A registration mails its link before its transaction commits. On PGlite (one connection, held by
  // the transaction) a mail that read the settings from the database once the copy was stale (a
  // slow password hash is enough) waited forever, and every request behind it: the e2e suite hung.
  it("mails inside a transaction with a stale copy without waiting for the database, under the instance's name", async () => {
    const { name } = await t.ctx.settings.update({ name: 'Stale Copy Club' });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await t.ctx.db.transaction(async () => {
        vi.setSystemTime(Date.now() + 60_000);
        await t.ctx.mailer.send({ to: 'stale@example.com', subject: 'Hello', text: 'Hi', link: 'http://x/' });
      });
    } finally {
      vi.useRealTimers();
    }
    const mail = (await readOutbox(t.dataDir)).find((m) => m.to === 'stale@example.com');
    expect(mail?.headers.from).toContain(name);
    // The stale copy was read again once the transaction let go.
    await expect.poll(() => t.ctx.settings.latest().name).toBe(name);
  });

  it('falls back to the default for a stored value that no longer fits', async () => {
    await new SettingsRepository(t.ctx.db).merge({ registrationMode: 'invite-only', maxVideoMinutes: -3, description: 'Kept' });
    const settings = await new SettingsService(t.ctx.db, defaultSettings(t.config)).get();
    expect(settings).toMatchObject({ registrationMode: 'open', maxVideoMinutes: 90, description: 'Kept' });
  });
});

describe('PATCH admin/settings', () => {
  it('saves a valid change (domains lower-cased) and answers the whole set', async () => {
    const admin = await createUser(t.ctx, { role: 'admin' });
    const res = await call(t, 'PATCH', '/admin/settings', {
      as: admin,
      body: { signupAllowedDomains: ['Uni.Example'], quotaBytes: 2_000_000_000, dailyQuotaBytes: null, about: '# Rules\n\nBe kind.' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe(instanceMessages.settingsUpdated);
    expect(res.body.data).toMatchObject({ signupAllowedDomains: ['uni.example'], quotaBytes: 2_000_000_000, dailyQuotaBytes: null, about: '# Rules\n\nBe kind.' });
  });

  it('refuses a bad domain, a negative quota, an unknown mode or key with a 400 that changes nothing', async () => {
    const admin = await createUser(t.ctx, { role: 'admin' });
    const before = await t.ctx.settings.get();
    const bad = [
      { signupBlockedDomains: ['not a domain'], name: 'Changed' },
      { signupAllowedDomains: ['example'] },
      { quotaBytes: -1, name: 'Changed' },
      { dailyQuotaBytes: 1.5 },
      { maxVideoMinutes: 0 },
      { registrationMode: 'invite-only' },
      { name: '' },
      { theme: 'dark' },
    ];
    for (const body of bad) expectError(await call(t, 'PATCH', '/admin/settings', { as: admin, body }), 400);
    expect(await new SettingsService(t.ctx.db, defaultSettings(t.config)).get()).toEqual(before);
  });
});

describe('GET instance/about', () => {
  it('answers the name, description and about text to anyone, and nothing else of the settings', async () => {
    await t.ctx.settings.update({ name: 'Film Club', description: 'Short films', about: 'Be **kind**.' });
    const res = await call(t, 'GET', '/instance/about');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ name: 'Film Club', description: 'Short films', about: 'Be **kind**.' });
  });
});

describe('the maximum video duration', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-duration-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('is the admin setting, not MAX_VIDEO_MINUTES, once changed', async () => {
    // Eleven frames, the last one two minutes in: a two-minute video that takes no time to make.
    const out = path.join(dir, 'two-minutes.mp4');
    await testMedia.engine.run(
      clipJob({ out, seconds: 1, width: 64, height: 64, container: 'mp4', video: { codec: 'libx264', options: { preset: 'ultrafast' } }, audio: false, videoFilter: "trim=end_frame=11,setpts='if(eq(N\\,10)\\,120/TB\\,PTS)'" }),
    );
    const file = await readFile(out);
    const auth = await bearer(t.ctx, await createUser(t.ctx));
    await t.ctx.settings.update({ maxVideoMinutes: 1 });
    const refused = await uploadVideo(t.app, auth, file, 'too long');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Videos can be at most 1 minute long');
    await t.ctx.settings.update({ maxVideoMinutes: 3 });
    const accepted = await uploadVideo(t.app, auth, file, 'fits');
    expect(accepted.statusCode, accepted.body).toBe(201);
  });
});
