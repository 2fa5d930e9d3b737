import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The shipped front config, docs/nginx.conf. */
export const NGINX_CONF = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/nginx.conf');

/** The environment docs/nginx.conf tells Glimpse to run with behind it (its `npm start` line). */
export function documentedGlimpseEnv(): Record<string, string> {
  const line = /^#\s+((?:[A-Z_]+=\S+\s+)+)npm start$/m.exec(readFileSync(NGINX_CONF, 'utf8'));
  if (!line) throw new Error(`${NGINX_CONF} no longer shows the environment to run Glimpse with`);
  return Object.fromEntries(line[1]!.trim().split(/\s+/).map((pair) => pair.split('=') as [string, string]));
}

export interface NginxFront {
  process: ChildProcess;
  /** The self-signed certificate the https port presents (PEM), for clients to trust. */
  certificate: string;
  stop(): Promise<void>;
}

function mustReplace(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`docs/nginx.conf no longer contains '${from}'; update the test template`);
  return text.replaceAll(from, to);
}

async function listening(port: number, seconds = 20): Promise<void> {
  for (let i = 0; i < seconds * 20; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      }).on('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nginx did not listen on ${port}`);
}

/**
 * Runs nginx (one worker, in the foreground) with docs/nginx.conf, changed only in its ports and
 * paths: this run's DATA_DIR, Glimpse's port, loopback ports for http and https, and a self-signed
 * certificate made for the run.
 */
export async function startNginx(o: {
  root: string;
  dataDir: string;
  upstreamPort: number;
  /** More Glimpse processes after `upstreamPort`: nginx takes turns over all of them (round-robin, its default). */
  moreUpstreamPorts?: number[];
  httpPort: number;
  httpsPort: number;
}): Promise<NginxFront> {
  const certDir = path.join(o.root, 'ssl');
  mkdirSync(certDir, { recursive: true });
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
    '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
    '-keyout', path.join(certDir, 'privkey.pem'), '-out', path.join(certDir, 'fullchain.pem'),
  ], { stdio: 'ignore' });
  let conf = readFileSync(NGINX_CONF, 'utf8');
  conf = mustReplace(conf, 'worker_processes auto;', 'worker_processes 1;');
  conf = mustReplace(conf, '/srv/glimpse/data', o.dataDir);
  const more = (o.moreUpstreamPorts ?? []).map((port) => `\n    server 127.0.0.1:${port};`).join('');
  conf = mustReplace(conf, 'server 127.0.0.1:3000;', `server 127.0.0.1:${o.upstreamPort};${more}`);
  conf = mustReplace(conf, 'listen 80;', `listen 127.0.0.1:${o.httpPort};`);
  conf = mustReplace(conf, 'listen 443 ssl http2;', `listen 127.0.0.1:${o.httpsPort} ssl http2;`);
  conf = mustReplace(conf, '/etc/ssl/glimpse/', `${certDir}/`);
  const file = path.join(o.root, 'nginx.conf');
  writeFileSync(file, `daemon off; pid ${o.root}/nginx.pid; error_log ${o.root}/nginx-error.log;\n${conf}`);
  const child = spawn('nginx', ['-c', file], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const up = Promise.all([listening(o.httpPort), listening(o.httpsPort)]).then(() => true);
  if (!(await Promise.race([up, exited.then(() => false)]))) {
    throw new Error(`nginx exited:\n${readFileSync(path.join(o.root, 'nginx-error.log'), 'utf8')}`);
  }
  return {
    process: child,
    certificate: readFileSync(path.join(certDir, 'fullchain.pem'), 'utf8'),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
      await exited;
    },
  };
}
