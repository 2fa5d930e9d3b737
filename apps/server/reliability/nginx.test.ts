import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as http2Connect } from 'node:http2';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import type { AppContext } from '../src/context.ts';
import { createUser, TEST_PASSWORD } from '../test/harness.ts';
import { documentedGlimpseEnv, startNginx, type NginxFront } from '../test/nginx.ts';
import { freePort, scratchDatabase, startProcess, type ServerProcess } from '../test/processes.ts';

/**
 * The shipped nginx front (docs/nginx.conf, changed only in ports and paths) before a real Glimpse
 * run as that file says (its TRUST_PROXY): each client address has its own rate limit, whatever
 * X-Forwarded-For it sends, a login over https sets a Secure refresh cookie, and https is HTTP/2.
 * Clients bind distinct loopback addresses (127.0.0.2, 127.0.0.3, ...) to be distinct clients to nginx.
 */
const LOGIN_LIMIT = 3;
let tmp: string;
let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let database: Database;
let glimpse: ServerProcess;
let nginx: NginxFront;
let httpPort: number;
let httpsPort: number;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'glimpse-nginx-'));
  scratch = await scratchDatabase();
  database = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
  await migrate(database);
  const upstreamPort = await freePort();
  [httpPort, httpsPort] = [await freePort(), await freePort()];
  const dataDir = path.join(tmp, 'data');
  glimpse = startProcess('serve', {
    TRUST_PROXY: documentedGlimpseEnv().TRUST_PROXY!,
    DATABASE_URL: scratch.url,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(upstreamPort),
    RATE_LIMITS_ENABLED: 'true',
    RATE_LIMIT_LOGIN: String(LOGIN_LIMIT),
  });
  await glimpse.ready;
  nginx = await startNginx({ root: tmp, dataDir, upstreamPort, httpPort, httpsPort });
}, 60_000);
afterAll(async () => {
  await nginx?.stop();
  await glimpse?.kill();
  await database?.close();
  await scratch?.drop();
  await rm(tmp, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A login through nginx from the loopback address `from`, over http or https. */
function login(from: string, body: object, o: { https?: boolean; headers?: Record<string, string> } = {}): Promise<Answer> {
  const payload = JSON.stringify(body);
  const options = {
    host: '127.0.0.1',
    port: o.https ? httpsPort : httpPort,
    localAddress: from,
    method: 'POST',
    path: '/api/v1/auths/login',
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)), ...o.headers },
    ...(o.https ? { ca: nginx.certificate, servername: 'localhost' } : {}),
  };
  return new Promise((resolve, reject) => {
    const req = (o.https ? httpsRequest : httpRequest)(options, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const wrongPassword = { email: 'nobody@example.com', password: 'wrong-password' };

it('limits each client address on its own; a client cannot dodge its limit with X-Forwarded-For', async () => {
  for (let i = 0; i < LOGIN_LIMIT; i++) expect((await login('127.0.0.2', wrongPassword)).status).toBe(401);
  const limited = await login('127.0.0.2', wrongPassword);
  expect(limited.status).toBe(429);
  expect(JSON.parse(limited.body)).toMatchObject({ success: false, statusCode: 429 });

  // Naming another address, or a list of them, does not give a fresh counter, over http or https.
  for (const forwarded of ['203.0.113.7', '203.0.113.7, 198.51.100.4', '127.0.0.3']) {
    expect((await login('127.0.0.2', wrongPassword, { headers: { 'x-forwarded-for': forwarded } })).status).toBe(429);
    expect((await login('127.0.0.2', wrongPassword, { https: true, headers: { 'x-forwarded-for': forwarded } })).status).toBe(429);
  }

  // Another client has its own limit, and naming the limited one does not spend it.
  expect((await login('127.0.0.3', wrongPassword, { headers: { 'x-forwarded-for': '127.0.0.2' } })).status).toBe(401);
  for (let i = 1; i < LOGIN_LIMIT; i++) expect((await login('127.0.0.3', wrongPassword)).status).toBe(401);
  expect((await login('127.0.0.3', wrongPassword)).status).toBe(429);

  // A client on nginx's own address (trusted as the proxy) cannot pass a made-up address along:
  // nginx replaces the header instead of appending to it.
  for (let i = 0; i < LOGIN_LIMIT; i++) {
    expect((await login('127.0.0.1', wrongPassword, { headers: { 'x-forwarded-for': `198.51.100.${i}` } })).status).toBe(401);
  }
  expect((await login('127.0.0.1', wrongPassword, { headers: { 'x-forwarded-for': '198.51.100.99' } })).status).toBe(429);
});

it('sets the refresh cookie Secure on a login over https, and not over plain http', async () => {
  const user = await createUser({ db: database.db } as AppContext);
  const credentials = { email: user.email, password: TEST_PASSWORD };
  const cookieOf = (a: Answer) => [a.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('refreshToken='));

  const overHttps = await login('127.0.0.4', credentials, { https: true });
  expect(overHttps.status, overHttps.body).toBe(200);
  expect(cookieOf(overHttps)).toMatch(/; Secure/);
  expect(cookieOf(overHttps)).toMatch(/; HttpOnly/);

  // Over http, a client claiming https is not believed: nginx sets the scheme it saw.
  const overHttp = await login('127.0.0.5', credentials, { headers: { 'x-forwarded-proto': 'https' } });
  expect(overHttp.status, overHttp.body).toBe(200);
  expect(cookieOf(overHttp)).toBeDefined();
  expect(cookieOf(overHttp)).not.toMatch(/Secure/);
});

it('speaks HTTP/2 over https: one connection carries a page\'s requests side by side', async () => {
  // On HTTP/1.1 a browser opens six connections to a host and queues the rest (docs/deploy-nginx.md).
  const session = http2Connect(`https://127.0.0.1:${httpsPort}`, { ca: nginx.certificate, servername: 'localhost' });
  try {
    await new Promise<void>((resolve, reject) => session.once('connect', () => resolve()).once('error', reject));
    expect(session.alpnProtocol).toBe('h2');
    const get = (p: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const stream = session.request({ ':path': p });
        let status = 0;
        let body = '';
        stream.on('response', (headers) => (status = Number(headers[':status'])));
        stream.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        stream.on('end', () => resolve({ status, body })).on('error', reject);
      });
    const answers = await Promise.all(Array.from({ length: 8 }, () => get('/api/v1/health')));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ success: true });
  } finally {
    session.close();
  }
});
