import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { wrapPool } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { MediaService } from '../apps/server/src/media/media-service.ts';
import { figuresTable, type Figure, type FigureReport } from './figures.ts';

// The benchmarks import Figure from here, with the rest of what they share.
export type { Figure } from './figures.ts';

export interface LoadResult {
  label: string;
  requestsPerSec: number;
  bytesPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** One autocannon run (loopback only), summarised. */
export async function load(
  label: string,
  opts: { url: string; connections: number; seconds: number; requests?: autocannon.Request[]; headers?: Record<string, string>; overallRate?: number },
): Promise<LoadResult> {
  const r = await autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: opts.seconds,
    requests: opts.requests,
    headers: opts.headers,
    ...(opts.overallRate ? { overallRate: opts.overallRate } : {}),
  });
  return {
    label,
    requestsPerSec: r.requests.average,
    bytesPerSec: r.throughput.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

/**
 * The database a benchmark runs against (one it may truncate): BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/glimpse_bench), or with `suffix` a database beside it named
 * `<that name>_<suffix>`, so benchmarks that drop or reseed theirs never touch another's.
 */
export function benchDatabaseUrl(suffix?: string): string {
  const base = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/glimpse_bench');
  if (suffix) base.pathname = `${base.pathname}_${suffix}`;
  return base.toString();
}

const databaseName = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));
const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Runs `fn` with a client on the server's maintenance database `postgres` (CREATE / DROP DATABASE). */
async function withServer<T>(url: string, fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const server = new URL(url);
  server.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

/** Creates the benchmark's database when missing (a fresh machine has none) and migrates it; returns the url. */
export async function ensureDatabase(url: string): Promise<string> {
  const name = databaseName(url);
  await withServer(url, async (admin) => {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
  });
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    await migrate(wrapPool(pool));
  } finally {
    await pool.end();
  }
  return url;
}

/** Drops and recreates the benchmark's own database, migrated. */
export async function freshDatabase(url: string): Promise<void> {
  await withServer(url, (admin) => admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(databaseName(url))} WITH (FORCE)`));
  await ensureDatabase(url);
}

export const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
export const fmt = (n: number, d = 2) => n.toFixed(d);
/** The middle value (the upper one of an even count). */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB/s`;

/** The 1-minute load average now, for the step a benchmark just measured (this machine is shared). */
export const loadNow = (): string => os.loadavg()[0]!.toFixed(1);

/** CPU seconds (user + system) used so far by this process and the children it has waited for. */
export function cpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return fields.slice(11, 15).reduce((a, b) => a + Number(b), 0) / 100;
}

/**
 * This machine's CPU time so far, all cores together (/proc/stat): busy, idle (I/O wait included)
 * and stolen (the host ran another machine on a core this one wanted), in seconds.
 */
export function machineCpu(): { busy: number; idle: number; steal: number } {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number) as number[];
  return { busy: (user! + nice! + system! + irq! + softirq!) / 100, idle: (idle! + iowait!) / 100, steal: steal! / 100 };
}

/** Cores busy, idle and stolen on average between two machineCpu readings `seconds` apart ("1.6 busy, 0.3 idle, 0.1 stolen of 2 cores"). */
export function coresBetween(a: ReturnType<typeof machineCpu>, b: ReturnType<typeof machineCpu>, seconds: number): string {
  const per = (x: number) => fmt(x / seconds, 1);
  return `${per(b.busy - a.busy)} busy, ${per(b.idle - a.idle)} idle, ${per(b.steal - a.steal)} stolen by the host of ${os.cpus().length} cores`;
}

/** CPU seconds (user + system) another process has used so far, its children not counted. */
export function processCpuSeconds(pid: number): number {
  return statCpuSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** User + system seconds from the text of a /proc/<pid>/stat. */
function statCpuSeconds(stat: string): number {
  const fields = stat.split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds (user + system) used so far by this machine's PostgreSQL processes (the server the
 * benches run against is local): the SQL a request makes costs the same cores as the request.
 * A backend that ends between two readings takes its time with it, so read around a steady run.
 */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.includes(' (postgres) ')) total += statCpuSeconds(stat);
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

/** A port nobody listens on now (other benchmarks and helpers may run on this machine). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown cpu';
  // The load average says how much else ran: this machine is shared, so figures vary with it.
  const load = os.loadavg().map((l) => l.toFixed(1)).join(' ');
  return `${os.cpus().length} cores (${cpu}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}; load average at report ${load}`;
}

/** The media engine the app uses (FFmpeg from the node-av npm package unless FFMPEG_PATH says otherwise). */
export const media = new MediaService(loadConfig({ ...process.env, DATA_DIR: 'bench/tmp' }).media);

export async function engineVersion(): Promise<string> {
  const s = await media.status();
  return `media engine: ${s.engine}, FFmpeg ${s.version}`;
}

/**
 * Writes bench/results/<name>.md with the lines, the command and the machine, and with `figures`
 * also bench/results/<name>.json (date, command, machine, figures) and a table of them in the .md.
 */
export function report(name: string, command: string, lines: string[], figures?: Figure[]): void {
  const dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'results');
  mkdirSync(dir, { recursive: true });
  const date = new Date().toISOString();
  const host = machine();
  const table = figures?.length ? ['', '## Figures', '', ...figuresTable(figures)] : [];
  const body = [`# ${name}`, '', `- date: ${date}`, `- command: \`${command}\``, `- machine: ${host}`, '', ...lines, ...table, ''].join('\n');
  writeFileSync(path.join(dir, `${name}.md`), body);
  if (figures) {
    const result: FigureReport = { name, date, command, machine: host, figures };
    writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
  }
  console.log(body);
}

const UNITS: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };
const toMs = (v: string) => {
  const m = /([\d.]+)(us|ms|s)/.exec(v);
  if (!m) return NaN;
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 's' ? n * 1000 : n;
};

type WrkOptions = { url: string; connections: number; seconds: number; requests: { path: string; headers?: Record<string, string> }[]; threads?: number };

/** wrk's arguments for a run whose `requests` rotate (each may carry headers: byte ranges). */
function wrkArgs(opts: WrkOptions): string[] {
  const script = path.join(os.tmpdir(), `wrk-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.lua`);
  const lua = opts.requests
    .map((r) => `{ path = ${JSON.stringify(r.path)}, headers = { ${Object.entries(r.headers ?? {}).map(([k, v]) => `[${JSON.stringify(k)}] = ${JSON.stringify(v)}`).join(', ')} } }`)
    .join(',\n');
  writeFileSync(
    script,
    `local reqs = {\n${lua}\n}\nlocal i = 0\nrequest = function()\n  i = i + 1\n  local r = reqs[(i % #reqs) + 1]\n  return wrk.format("GET", r.path, r.headers)\nend\n`,
  );
  return ['-t', String(opts.threads ?? 1), '-c', String(opts.connections), '-d', `${opts.seconds}s`, '--latency', '-s', script, opts.url];
}

const execFileAsync = promisify(execFile);

function wrkResult(label: string, out: string): LoadResult {
  const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? NaN);
  const transfer = /Transfer\/sec:\s+([\d.]+)(B|KB|MB|GB)/.exec(out);
  const non2xx = num(/Non-2xx or 3xx responses:\s+(\d+)/);
  const errs = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    label,
    requestsPerSec: num(/Requests\/sec:\s+([\d.]+)/),
    bytesPerSec: transfer ? Number(transfer[1]) * (UNITS[transfer[2]!] ?? 1) : NaN,
    p50: toMs(/\s50%\s+(\S+)/.exec(out)?.[1] ?? ''),
    p99: toMs(/\s99%\s+(\S+)/.exec(out)?.[1] ?? ''),
    errors: errs ? errs.slice(1).reduce((a, b) => a + Number(b), 0) : 0,
    non2xx: Number.isNaN(non2xx) ? 0 : non2xx,
  };
}

/**
 * One wrk run (C load generator: it, not the server, is the limit with autocannon on big bodies).
 * `requests` rotate; each may carry headers (byte ranges).
 */
export function wrk(label: string, opts: WrkOptions): LoadResult {
  return wrkResult(label, execFileSync('wrk', wrkArgs(opts)).toString());
}

/**
 * wrk without blocking this process: while another load runs in it (autocannon), the latencies
 * are timed by wrk's own thread, not by an event loop that also generates that other load.
 */
export async function wrkAlongside(label: string, opts: WrkOptions): Promise<LoadResult> {
  const { stdout } = await execFileAsync('wrk', wrkArgs(opts));
  return wrkResult(label, stdout);
}

/** Resolves once `url` answers below 500 (a server child process has come up). */
export async function waitFor(url: string, seconds = 60): Promise<void> {
  for (let i = 0; i < seconds * 10; i++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

/**
 * The Node flags `npm start` gives the server (package.json's start script, read so the two cannot
 * drift): the real server runs with them, and so do the bare servers it is measured against.
 */
export const SERVER_NODE_FLAGS: string[] = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start
  .split(/\btsx\s+/)[1]!
  .split(/\s+/)
  .filter((arg) => arg.startsWith('--'));

/** The real server as `npm start` runs it (tsx, no worker, no rate limits, quiet), on 127.0.0.1:port. */
export function startGlimpse(port: number, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', 'apps/server/src/main.ts', 'serve'], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', WORKER_ENABLED: 'false', RATE_LIMITS_ENABLED: 'false', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Stops a child process and waits for it to exit. */
export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
