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

/** What nodemailer is given: the same for SMTP and the outbox, so the outbox shows what SMTP would send. */
const envelope = (from: string, m: MailMessage) => ({
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
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail(envelope(this.from, message));
  }
}

/** Writes each message as an RFC 822 `.eml` file in a folder and logs its link: mail with zero setup. */
export class OutboxMailer implements Mailer {
  private readonly transport = nodemailer.createTransport({ streamTransport: true, buffer: true });

  constructor(
    readonly dir: string,
    private readonly from: string,
    private readonly log: (line: string) => void,
  ) {}

  async send(message: MailMessage): Promise<void> {
    const info = await this.transport.sendMail(envelope(this.from, message));
    await mkdir(this.dir, { recursive: true });
    // Time first so a directory listing is in sending order; the id keeps names unique.
    const file = path.join(this.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${newId()}.eml`);
    await writeFile(file, info.message as Buffer);
    this.log(`Mail to ${message.to} "${message.subject}": ${message.link} (saved as ${file})`);
  }
}

/** SMTP when configured, else the outbox folder DATA_DIR/outbox. */
export function createMailer(config: Config, log: (line: string) => void = console.log): Mailer {
  if (config.smtpUrl) return new SmtpMailer(config.smtpUrl, config.mailFrom);
  return new OutboxMailer(path.join(config.dataDir, 'outbox'), config.mailFrom, log);
}
