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

/** The text of a mail: its one body, or every part of a multipart one (text and HTML), decoded. */
function textOf(headers: string, body: string): string {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
  if (!boundary || !/^content-type:\s*multipart\//im.test(headers)) return decodeBody(headers, body);
  return body
    .split(`--${boundary}`)
    .slice(1)
    .map((part) => {
      const split = part.search(/\r?\n\r?\n/);
      return split < 0 ? '' : textOf(part.slice(0, split), part.slice(split).trim());
    })
    .join('\n');
}

/** Each mail to `email` as its raw header block (folded lines joined) and its decoded text, in sending order. */
async function mailsWithHeadersTo(email: string): Promise<{ headers: string; text: string }[]> {
  const files = await readdir(outboxDir).catch(() => [] as string[]);
  const texts: { headers: string; text: string }[] = [];
  // File names start with the sending time, so sorted order is sending order.
  for (const file of files.filter((f) => f.endsWith('.eml')).sort()) {
    const raw = await readFile(path.join(outboxDir, file), 'utf8');
    const split = raw.search(/\r?\n\r?\n/);
    const headers = raw.slice(0, split);
    // A long address is folded onto the next line: unfold before matching.
    const unfolded = headers.replace(/\r?\n[ \t]+/g, ' ');
    if (!new RegExp(`^to:.*${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'im').test(unfolded)) continue;
    texts.push({ headers: unfolded, text: textOf(headers, raw.slice(split).trim()) });
  }
  return texts;
}

const mailsTo = async (email: string) => (await mailsWithHeadersTo(email)).map((m) => m.text);

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

/** The newest mail to `email` whose text matches `pattern` (a link-less notice, say), waiting for it to land. */
export async function mailMatching(email: string, pattern: RegExp): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(async () => {
      found = (await mailsTo(email)).filter((text) => pattern.test(text)).at(-1);
      return found;
    }, { message: `a mail to ${email} matching ${pattern}` })
    .toBeTruthy();
  return found!;
}

/** Like mailMatching, with the mail's header block (List-Unsubscribe, say). */
export async function mailWithHeaders(email: string, pattern: RegExp): Promise<{ headers: string; text: string }> {
  let found: { headers: string; text: string } | undefined;
  await expect
    .poll(async () => {
      found = (await mailsWithHeadersTo(email)).filter((m) => pattern.test(m.text)).at(-1);
      return found;
    }, { message: `a mail to ${email} matching ${pattern}`, timeout: 30_000 })
    .toBeTruthy();
  return found!;
}
