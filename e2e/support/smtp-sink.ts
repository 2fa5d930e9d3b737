/**
 * The e2e mail server, run by playwright.config.ts before Glimpse: a real SMTP server (the
 * smtp-server package) with STARTTLS under a certificate made here and AUTH required. The e2e
 * server sends every mail through it (SMTP_URL), and it saves each message as an .eml file in the
 * outbox folder the helpers read: every mail of the suite crosses real SMTP.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { outboxDir, smtpPassword, smtpPort, smtpUser } from './env.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'glimpse-e2e-smtp-'));
const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert], {
  stdio: 'ignore',
});

const server = new SMTPServer({
  key: readFileSync(key),
  cert: readFileSync(cert),
  authMethods: ['PLAIN', 'LOGIN'],
  // AUTH only after STARTTLS: a server that skipped TLS could not send.
  allowInsecureAuth: false,
  logger: false,
  onAuth(auth, _session, callback) {
    if (auth.username === smtpUser && auth.password === smtpPassword) callback(null, { user: auth.username });
    else callback(new Error('Invalid username or password'));
  },
  onData(stream, _session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      // The server empties its data folder when it starts: make the outbox again if need be.
      mkdirSync(outboxDir, { recursive: true });
      writeFileSync(path.join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`), Buffer.concat(chunks));
      callback();
    });
  },
});
// smtp-server emits a connection's socket and TLS errors on the server: unheard, one would end this
// process and every later mail of the suite with it.
server.on('error', (err) => console.error(`e2e SMTP server: ${err.message}`));
server.listen(smtpPort, '127.0.0.1', () => console.log(`e2e SMTP server on 127.0.0.1:${smtpPort}`));
