/**
 * Just enough MIME to read what nodemailer writes (tests): headers, a text/plain and a text/html
 * part (alone or in a multipart/alternative), quoted-printable, base64 and encoded-word subjects.
 */
export interface ParsedMail {
  /** Header names lower-cased, folded lines joined. */
  headers: Record<string, string>;
  to: string;
  subject: string;
  text: string;
  html: string;
}

function splitHead(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.indexOf('\r\n\r\n');
  const head = at < 0 ? raw : raw.slice(0, at);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body: at < 0 ? '' : raw.slice(at + 4) };
}

const utf8 = (bytes: number[]) => Buffer.from(bytes).toString('utf8');

/** Quoted-printable to text (soft line breaks removed, =XX bytes decoded as UTF-8). */
export function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = [];
  const flat = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < flat.length; i += 1) {
    const hex = flat[i] === '=' ? /^[0-9A-F]{2}$/i.exec(flat.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(flat[i]!, 'utf8'));
  }
  return utf8(bytes);
}

/** `=?UTF-8?Q?...?=` and `=?UTF-8?B?...?=` words of a header (the space between two such words is dropped, RFC 2047). */
export const decodeWords = (value: string) =>
  value.replace(/=\?utf-8\?([QB])\?([^?]*)\?=(?:\s+(?==\?))?/gi, (_m, kind: string, data: string) =>
    kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );

/** The decoded body with the wire's CRLF line ends as LF (as the text was written). */
function decodeBody(headers: Record<string, string>, body: string): string {
  const encoding = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  const text =
    encoding === 'quoted-printable' ? decodeQuotedPrintable(body) : encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : body;
  return text.replace(/\r\n/g, '\n');
}

export function parseMail(raw: string): ParsedMail {
  const { headers, body } = splitHead(raw);
  const mail: ParsedMail = { headers, to: headers.to ?? '', subject: decodeWords(headers.subject ?? ''), text: '', html: '' };
  const parts: { headers: Record<string, string>; body: string }[] = [];
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
  if (boundary) {
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      parts.push(splitHead(chunk.replace(/^\r\n/, '')));
    }
  } else parts.push({ headers, body });
  for (const part of parts) {
    const type = (part.headers['content-type'] ?? 'text/plain').toLowerCase();
    if (type.startsWith('text/html')) mail.html = decodeBody(part.headers, part.body);
    else if (type.startsWith('text/plain')) mail.text = decodeBody(part.headers, part.body);
  }
  return mail;
}
