import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import { newId } from '../lib/ids.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The one link the mail is about; the outbox driver prints it so local setups need no mail server. */
  link: string;
  /** An HTML alternative to `text` (user text in it escaped by the caller). */
  html?: string;
  /** Extra headers, e.g. List-Unsubscribe. */
  headers?: Record<string, string>;
}

/**
 * Where the instance's current name comes from (the settings service's last read). Synchronous on
 * purpose: mails are sent inside transactions, where a database read would wait on PGlite forever.
 */
export interface SenderNameSource {
  latest(): { name: string };
}

/** A MAIL_FROM with its own display name ("Ops <ops@x.org>"): the operator chose it, and it stays. */
const NAMED = /^\s*("[^"]*"|[^<]*\S)\s*<[^>]+>\s*$/;

/**
 * The From of every mail: MAIL_FROM as given when it names a sender, else its address under the
 * instance's name (Administration -> Settings), which nodemailer quotes and encodes as needed.
 */
export function senderFor(mailFrom: string, instanceName: string): string | { name: string; address: string } {
  if (NAMED.test(mailFrom)) return mailFrom;
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return { name: instanceName, address };
}

/** What nodemailer is given: the same for SMTP and the outbox, so the outbox shows what SMTP would send. */
const envelope = (from: string | { name: string; address: string }, m: MailMessage) => ({
  from,
  to: m.to,
  subject: m.subject,
  text: m.text,
  ...(m.html ? { html: m.html } : {}),
  ...(m.headers ? { headers: m.headers } : {}),
});

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * Sends over SMTP (SMTP_URL). Transport options ride in the URL's query, e.g.
 * `?requireTLS=true` (refuse to send without STARTTLS) or `?tls.rejectUnauthorized=false`.
 */
class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: () => Promise<ReturnType<typeof senderFor>>,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail(envelope(await this.from(), message));
  }
}

/** Writes each message as an RFC 822 `.eml` file in a folder and logs its link: mail with zero setup. */
export class OutboxMailer implements Mailer {
  private readonly transport = nodemailer.createTransport({ streamTransport: true, buffer: true });

  constructor(
    readonly dir: string,
    private readonly from: () => Promise<ReturnType<typeof senderFor>>,
    private readonly log: (line: string) => void,
  ) {}

  async send(message: MailMessage): Promise<void> {
    const info = await this.transport.sendMail(envelope(await this.from(), message));
    await mkdir(this.dir, { recursive: true });
    // Time first so a directory listing is in sending order; the id keeps names unique.
    const file = path.join(this.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${newId()}.eml`);
    await writeFile(file, info.message as Buffer);
    this.log(`Mail to ${message.to} "${message.subject}": ${message.link} (saved as ${file})`);
  }
}

/** SMTP when configured, else the outbox folder DATA_DIR/outbox; sent from `senderFor`. */
export function createMailer(config: Config, instance: SenderNameSource, log: (line: string) => void = console.log): Mailer {
  const from = async () => senderFor(config.mailFrom, instance.latest().name);
  if (config.smtpUrl) return new SmtpMailer(config.smtpUrl, from);
  return new OutboxMailer(path.join(config.dataDir, 'outbox'), from, log);
}
