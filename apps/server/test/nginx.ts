import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './processes.ts';

const DOCUMENTED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/nginx.conf');

export interface Nginx {
  url: string;
  stop(): Promise<void>;
}

/**
 * nginx running the shipped docs/nginx.conf, with only this run's paths and ports put in (the
 * data folder, Glimpse's address, its own port, one worker, in the foreground).
 */
export async function startNginx(o: { dataDir: string; glimpsePort: number }): Promise<Nginx> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-nginx-'));
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  const documented = await readFile(DOCUMENTED, 'utf8');
  await writeFile(
    conf,
    `daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;\n` +
      documented
        .replace('worker_processes auto;', 'worker_processes 1;')
        .replaceAll('/srv/glimpse/data', o.dataDir)
        .replaceAll('127.0.0.1:3000', `127.0.0.1:${o.glimpsePort}`)
        .replace('listen 80;', `listen 127.0.0.1:${port};`),
  );
  const child = spawn(process.env.NGINX_PATH ?? 'nginx', ['-c', conf, '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    if (await fetch(`${url}/api/v1/health`).then((r) => r.ok, () => false)) break;
    if (i > 100) throw new Error(`nginx did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    stop: async () => {
      child.kill('SIGQUIT');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
