import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from '@playwright/test';
import { outboxDir } from './env.ts';

/** Undoes the transfer encoding nodemailer picked for a single-part text mail. */
function decodeBody(headers: string, body: string): string {
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

async function mailsTo(email: string): Promise<string[]> {
  const files = await readdir(outboxDir).catch(() => [] as string[]);
  const texts: string[] = [];
  // File names start with the sending time, so sorted order is sending order.
  for (const file of files.filter((f) => f.endsWith('.eml')).sort()) {
    const raw = await readFile(path.join(outboxDir, file), 'utf8');
    const split = raw.search(/\r?\n\r?\n/);
    const headers = raw.slice(0, split);
    if (!new RegExp(`^to:.*${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'im').test(headers)) continue;
    texts.push(decodeBody(headers, raw.slice(split).trim()));
  }
  return texts;
}

/** The newest link to `route` (e.g. '/email-verification') mailed to `email`, waiting for the mail to land. */
export async function mailedLink(email: string, route: string): Promise<URL> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const pattern = new RegExp(`https?://\\S+${route}\\?token=\\S+`, 'g');
      link = (await mailsTo(email)).flatMap((text) => text.match(pattern) ?? []).at(-1);
      return link;
    }, { message: `a mail to ${email} with a ${route} link` })
    .toBeTruthy();
  return new URL(link!);
}

export const verificationLink = (email: string) => mailedLink(email, '/email-verification');
