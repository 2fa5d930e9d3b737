import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootPersistentApp, readOutbox, TEST_ENV } from '../../test/harness.ts';
import { decodeWords } from '../../test/mime.ts';
import { startSmtp, type TestSmtp } from '../../test/smtp.ts';
import { loadConfig } from '../config.ts';
import { createMailer, OutboxMailer, senderFor } from './mailer.ts';
import { resetLink, verificationLink, verificationMail } from './templates.ts';

/** The instance's name as the settings service gives it. */
const named = (name = 'Glimpse') => ({ latest: () => ({ name }) });

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-mail-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('mailer', () => {
  it('writes an RFC 822 message to DATA_DIR/outbox and logs its link when no SMTP_URL is set', async () => {
    const lines: string[] = [];
    const mailer = createMailer(loadConfig({ ...TEST_ENV, DATA_DIR: dataDir }), named(), (line) => lines.push(line));
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

  it('writes the HTML part and extra headers to the outbox too', async () => {
    const mailer = createMailer(loadConfig({ ...TEST_ENV, DATA_DIR: dataDir }), named(), () => {});
    await mailer.send({ ...rich, to: 'outbox-rich@example.com' });
    const mail = (await readOutbox(dataDir)).find((m) => m.to === 'outbox-rich@example.com')!;
    expect(mail.text.trimEnd()).toBe(rich.text);
    expect(mail.html.trimEnd()).toBe(rich.html);
    expect(mail.headers['list-unsubscribe']).toBe(rich.headers['List-Unsubscribe']);
  });

  it("sends under the instance's name when MAIL_FROM is an address alone, read at each mail", async () => {
    const box = path.join(dataDir, 'named');
    let name = 'Ciné Club, Lyon';
    const mailer = createMailer(loadConfig({ ...TEST_ENV, DATA_DIR: box }), { latest: () => ({ name }) }, () => {});
    await mailer.send({ ...rich, to: 'first@example.com' });
    name = 'Club, Lyon';
    await mailer.send({ ...rich, to: 'second@example.com' });
    const froms = (await readOutbox(box)).map((m) => [m.to, decodeWords(m.headers.from!)]);
    expect(froms).toEqual([
      // One encoded word (its comma encoded too), then a quoted ASCII phrase.
      ['first@example.com', 'Ciné Club, Lyon <no-reply@glimpse.local>'],
      ['second@example.com', '"Club, Lyon" <no-reply@glimpse.local>'],
    ]);
  });

  it("keeps a sender name the operator wrote in MAIL_FROM; takes an address in brackets alone as no name", () => {
    expect(senderFor('Ops team <ops@x.org>', 'Ciné Club')).toBe('Ops team <ops@x.org>');
    expect(senderFor('"Ops, team" <ops@x.org>', 'Ciné Club')).toBe('"Ops, team" <ops@x.org>');
    expect(senderFor('ops@x.org', 'Ciné Club')).toEqual({ name: 'Ciné Club', address: 'ops@x.org' });
    expect(senderFor(' <ops@x.org> ', 'Ciné Club')).toEqual({ name: 'Ciné Club', address: 'ops@x.org' });
  });

  it("an app booted like npm start mails from the name set in Administration -> Settings", async () => {
    const booted = await bootPersistentApp(path.join(dataDir, 'booted'));
    try {
      await booted.ctx.settings.update({ name: 'Ciné Club' });
      await booted.ctx.mailer.send({ ...rich, to: 'booted@example.com' });
      const [mail] = await readOutbox(path.join(dataDir, 'booted'));
      expect(decodeWords(mail!.headers.from!)).toBe('Ciné Club <no-reply@glimpse.local>');
    } finally {
      await booted.close();
    }
  });

  it('builds links on the public base URL with the token encoded', () => {
    expect(resetLink('https://g.example', 'a+b/c')).toBe('https://g.example/password-reset?token=a%2Bb%2Fc');
  });
});

/** A message with every optional part: an HTML alternative and one-click unsubscribe headers. */
const rich = {
  to: 'ada@example.com',
  subject: 'Bob commented on "Ünïcode & <tags>"',
  text: 'Hello Ada,\n\nBob commented.\n\nhttp://glimpse.test/video/1',
  html: '<p>Hello Ada,</p><p>Bob commented &amp; more.</p>',
  link: 'http://glimpse.test/video/1',
  headers: {
    'List-Unsubscribe': '<http://glimpse.test/api/v1/notifications/unsubscribe?token=v1.abc>',
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  },
};

describe('SMTP (a real server: STARTTLS and a login required)', () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(() => smtp.close());

  it('logs in over STARTTLS and delivers both bodies and the extra headers', async () => {
    const mailer = createMailer(loadConfig({ ...TEST_ENV, DATA_DIR: dataDir, SMTP_URL: smtp.url }), named());
    expect(mailer).not.toBeInstanceOf(OutboxMailer);
    await mailer.send(rich);
    const mail = await smtp.next(0);
    expect({ user: mail.user, secure: mail.secure, rcptTo: mail.rcptTo }).toEqual({ user: smtp.user, secure: true, rcptTo: ['ada@example.com'] });
    expect(mail.headers.from).toBe('Glimpse <no-reply@glimpse.local>');
    expect(mail.subject).toBe(rich.subject);
    expect(mail.text.trimEnd()).toBe(rich.text);
    expect(mail.html.trimEnd()).toBe(rich.html);
    expect(mail.headers['list-unsubscribe']).toBe(rich.headers['List-Unsubscribe']);
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    // Existing callers send text only.
    await mailer.send(verificationMail({ email: 'bob@example.com', fullName: 'Bob' }, 'http://glimpse.test/x', 24));
    const plain = await smtp.next(1);
    expect(plain.text).toContain('http://glimpse.test/x');
    expect(plain.html).toBe('');
  });

  it('refuses a wrong password, and sends nothing', async () => {
    const before = smtp.received.length;
    const wrong = smtp.url.replace(`:${smtp.password}@`, ':not-the-password@');
    const mailer = createMailer(loadConfig({ ...TEST_ENV, DATA_DIR: dataDir, SMTP_URL: wrong }), named());
    await expect(mailer.send(rich)).rejects.toMatchObject({ code: 'EAUTH' });
    expect(smtp.received).toHaveLength(before);
  });

  it('cannot log in in clear text: the server offers AUTH only after STARTTLS', async () => {
    const before = smtp.received.length;
    const clear = smtp.url.replace('requireTLS=true', 'ignoreTLS=true');
    const mailer = createMailer(loadConfig({ ...TEST_ENV, DATA_DIR: dataDir, SMTP_URL: clear }), named());
    await expect(mailer.send(rich)).rejects.toMatchObject({ code: 'EAUTH' });
    expect(smtp.received).toHaveLength(before);
  });
});
