import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SMTPServer } from 'smtp-server';
import { parseMail, type ParsedMail } from './mime.ts';

export interface ReceivedMail extends ParsedMail {
  /** The SMTP envelope: who logged in, and whether the session was upgraded by STARTTLS. */
  user: string;
  secure: boolean;
  rcptTo: string[];
}

export interface TestSmtp {
  /** An SMTP_URL for the server: STARTTLS required, the test certificate accepted. */
  url: string;
  port: number;
  user: string;
  password: string;
  /** Every message received, in order. */
  received: ReceivedMail[];
  /** Resolves with the next message to arrive (or one already received beyond `after`). */
  next(after?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1, made at test time. */
async function selfSigned(dir: string): Promise<{ key: Buffer; cert: Buffer }> {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  await promisify(execFile)('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', key, '-out', cert,
  ]);
  return { key: await readFile(key), cert: await readFile(cert) };
}

/**
 * A real SMTP server (the smtp-server package) on 127.0.0.1 and a free port: STARTTLS with a
 * self-signed certificate, AUTH PLAIN or LOGIN required (only after STARTTLS), one user. It keeps
 * what it receives in memory.
 */
export async function startSmtp(user = 'glimpse', password = 'mail-secret'): Promise<TestSmtp> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-smtp-'));
  const { key, cert } = await selfSigned(dir);
  const received: ReceivedMail[] = [];
  const waiting: (() => void)[] = [];
  const server = new SMTPServer({
    key,
    cert,
    authMethods: ['PLAIN', 'LOGIN'],
    // Clear-text logins are refused: AUTH is offered after STARTTLS only.
    allowInsecureAuth: false,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          ...parseMail(Buffer.concat(chunks).toString('utf8')),
          user: String(session.user),
          secure: session.secure,
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
        });
        for (const wake of waiting.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const next = async (after = received.length) => {
    while (received.length <= after) await new Promise<void>((resolve) => waiting.push(resolve));
    return received[after]!;
  };
  return {
    url: `smtp://${user}:${password}@127.0.0.1:${port}/?requireTLS=true&tls.rejectUnauthorized=false`,
    port,
    user,
    password,
    received,
    next,
    close: async () => {
      await new Promise<void>((resolve) => server.close(resolve));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
