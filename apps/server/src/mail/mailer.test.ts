import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox, TEST_ENV } from '../../test/harness.ts';
import { loadConfig } from '../config.ts';
import { createMailer, OutboxMailer } from './mailer.ts';
import { resetLink, verificationLink, verificationMail } from './templates.ts';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-mail-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('mailer', () => {
  it('writes an RFC 822 message to DATA_DIR/outbox and logs its link when no SMTP_URL is set', async () => {
    const lines: string[] = [];
    const mailer = createMailer(loadConfig({ ...TEST_ENV, DATA_DIR: dataDir }), (line) => lines.push(line));
    expect(mailer).toBeInstanceOf(OutboxMailer);
    const link = verificationLink('http://glimpse.test', 'tok-123');
    await mailer.send(verificationMail({ email: 'ada@example.com', fullName: 'Ada' }, link, 24));
    const files = await readdir(path.join(dataDir, 'outbox'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const raw = await readFile(path.join(dataDir, 'outbox', files[0]!), 'utf8');
    expect(raw).toMatch(/^From: Glimpse <no-reply@glimpse\.local>\r\n/m);
    expect(raw).toMatch(/^To: ada@example\.com\r$/m);
    expect(raw).toMatch(/^Subject: Verify your email address\r$/m);
    expect(raw).toMatch(/^Message-ID: <.+>\r$/m);
    expect(raw).toMatch(/^Date: .+\r$/m);
    // Long lines are quoted-printable; the harness decodes them.
    const [mail] = await readOutbox(dataDir);
    expect(mail!.text).toContain('http://glimpse.test/email-verification?token=tok-123');
    expect(lines).toEqual([expect.stringContaining(link)]);
  });

  it('uses SMTP when SMTP_URL is set', () => {
    const mailer = createMailer(loadConfig({ ...TEST_ENV, DATA_DIR: dataDir, SMTP_URL: 'smtp://127.0.0.1:2525' }));
    expect(mailer).not.toBeInstanceOf(OutboxMailer);
  });

  it('builds links on the public base URL with the token encoded', () => {
    expect(resetLink('https://g.example', 'a+b/c')).toBe('https://g.example/password-reset?token=a%2Bb%2Fc');
  });
});
