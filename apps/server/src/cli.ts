import { role, roles, type Role } from '@glimpse/contract';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { createContext } from './boot.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { DatabaseLockedError } from './db/pglite-lock.ts';
import { consoleLogger } from './jobs/console-logger.ts';
import { createWorker, startLiveIngest } from './worker.ts';
import type { JobHandler, JobLogger } from './jobs/worker.ts';
import type { AppContext } from './context.ts';
import { DemoRefusedError, seedDemo } from './demo/demo.service.ts';
import { ModerationRepository } from './modules/moderation/moderation.repository.ts';
import { setRole } from './modules/users/roles.service.ts';

export interface CliOptions {
  /** More job queues for the worker (tests run their own handlers in a real process). */
  handlers?: Record<string, JobHandler<never>>;
}

/** SIGTERM/SIGINT to exit: process managers wait about 10 s before they SIGKILL. */
const SHUTDOWN_DEADLINE_MS = 9000;
/** In-flight HTTP requests get this long to finish before their connections are cut. */
const HTTP_DRAIN_MS = 3000;

export const WORKER_NEEDS_POSTGRES =
  '`npm run worker` needs a PostgreSQL server: set DATABASE_URL (the same one as the server\'s).\n' +
  'Without DATABASE_URL the database is embedded (PGlite in DATA_DIR/db), it belongs to one process, and\n' +
  '`npm start` already runs the job worker inside itself (WORKER_ENABLED, on by default).';

/**
 * On the first SIGTERM or SIGINT: `stop` (stop taking work, requeue running jobs, close the HTTP
 * server and the database), then exit 0; exit 1 if it fails or outlasts the deadline. A second signal kills at once.
 */
function stopOnSignal(log: JobLogger, stop: () => Promise<void>): void {
  const shutdown = (signal: NodeJS.Signals) => {
    log.info({ signal }, 'shutting down');
    setTimeout(() => {
      log.error({ signal }, `shutdown took longer than ${SHUTDOWN_DEADLINE_MS} ms; exiting`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

/** Stops accepting connections, lets requests in flight finish for a while, then cuts what is left. */
async function closeHttp(app: FastifyInstance): Promise<void> {
  const cut = setTimeout(() => app.server.closeAllConnections(), HTTP_DRAIN_MS);
  try {
    await app.close();
  } finally {
    clearTimeout(cut);
  }
}

/** Seeds the demo content and prints the logins, or says why not (the instance is not empty). */
async function addDemoContent(ctx: AppContext): Promise<void> {
  try {
    const result = await seedDemo(ctx, { log: (line) => console.log(line) });
    console.log(`\nDemo content is ready: ${result.logins.length} channels, ${result.videos} videos. Log in as any of them:`);
    for (const l of result.logins) console.log(`  ${l.email}  password: ${l.password}  (${l.fullName})`);
    console.log('');
  } catch (err) {
    if (!(err instanceof DemoRefusedError)) throw err;
    console.log(err.message);
  }
}

/** The engine is checked at start-up: an operator learns at once when uploads cannot work. */
async function logMediaEngine(ctx: AppContext, log: JobLogger) {
  const s = await ctx.media.status();
  if (s.problems.length === 0) log.info({ engine: s.engine, version: s.version }, 'media engine ready');
  else log.error({ engine: s.engine, version: s.version, problems: s.problems }, 'media engine unusable: uploads are refused');
}

async function serve(config: Config, args: string[], opts: CliOptions) {
  const ctx = await createContext(config);
  // `npm start -- --demo` or DEMO=1: demo content on the first start of an empty instance.
  if (config.demo || args.includes('--demo')) await addDemoContent(ctx);
  const app = await buildApp(ctx, { logger: { level: config.logLevel } });
  await logMediaEngine(ctx, app.log);
  const worker = config.worker.enabled ? createWorker(ctx, app.log, { handlers: opts.handlers }) : undefined;
  const ingest = worker ? await startLiveIngest(ctx, app.log) : undefined;
  stopOnSignal(app.log, async () => {
    await Promise.all([ingest?.stop(), worker?.stop(), closeHttp(app)]);
    await ctx.database.close();
  });
  await app.listen({ host: config.host, port: config.port });
  worker?.start();
  const shown = config.host === '0.0.0.0' ? 'localhost' : config.host;
  console.log(`Glimpse is running at http://${shown}:${config.port}`);
}

async function migrateOnly(config: Config) {
  const ctx = await createContext(config);
  await ctx.database.close();
  console.log('Database is migrated.');
}

/** The job worker alone (`npm run worker`): transcodes and housekeeping, no HTTP, on a PostgreSQL server. */
async function worker(config: Config, _args: string[], opts: CliOptions) {
  if (!config.databaseUrl) {
    console.error(WORKER_NEEDS_POSTGRES);
    process.exit(1);
  }
  const ctx = await createContext(config);
  const log = consoleLogger(config.logLevel);
  await logMediaEngine(ctx, log);
  const w = createWorker(ctx, log, { handlers: opts.handlers });
  const ingest = await startLiveIngest(ctx, log);
  stopOnSignal(log, async () => {
    await Promise.all([ingest?.stop(), w.stop()]);
    await ctx.database.close();
  });
  w.start();
  log.info({ workerId: w.id }, 'worker started');
}

/** `npm run seed -- --demo`: demo channels, videos and activity in an empty instance. */
async function seed(config: Config, args: string[]) {
  if (!args.includes('--demo')) {
    console.error('Usage: npm run seed -- --demo   (fills an empty instance with demo channels, videos and activity)');
    process.exit(2);
  }
  const ctx = await createContext(config);
  try {
    await addDemoContent(ctx);
  } finally {
    await ctx.database.close();
  }
}

export const ADMIN_USAGE =
  'Usage:\n' +
  `  npm run admin -- grant <email|@handle> <${roles.join('|')}>\n` +
  '  npm run admin -- revoke <email|@handle>   (back to user)';

/** The role an `admin` command line asks for, or null when it is malformed. */
function requestedRole(args: string[]): { name: string; role: Role } | null {
  const [verb, name, wanted, ...rest] = args;
  if (!name || rest.length > 0) return null;
  if (verb === 'revoke') return wanted === undefined ? { name, role: 'user' } : null;
  const parsed = role.safeParse(wanted);
  return verb === 'grant' && parsed.success ? { name, role: parsed.data } : null;
}

/** `npm run admin -- grant|revoke`: sets an account's role (exit 1: no such account, 2: bad usage). */
async function admin(config: Config, args: string[]) {
  const request = requestedRole(args);
  if (!request) {
    console.error(ADMIN_USAGE);
    process.exit(2);
  }
  const ctx = await createContext(config);
  try {
    // The change and its moderation log entry (no account acted: from the command line) in one transaction.
    const result = await ctx.db.transaction(async (tx) => {
      const change = await setRole(tx, request.name, request.role);
      if (change) await new ModerationRepository(tx).logRoleChange(null, change.before, change.after);
      return change;
    });
    if (!result) {
      console.error(`No account with the email or handle '${request.name}'.`);
      process.exitCode = 1;
      return;
    }
    const { before, after } = result;
    console.log(`@${after.userName} (${after.email}) is now ${after.role}${before === after.role ? ' (unchanged)' : ` (was ${before})`}.`);
  } finally {
    await ctx.database.close();
  }
}

const commands: Record<string, (c: Config, args: string[], opts: CliOptions) => Promise<void>> = { serve, worker, migrate: migrateOnly, seed, admin };

async function main(argv: string[], opts: CliOptions) {
  const name = argv[0] ?? 'serve';
  const command = commands[name];
  if (!command) {
    console.error(`Unknown command '${name}'. Use one of: ${Object.keys(commands).join(', ')}`);
    process.exit(2);
  }
  await command(loadConfig(), argv.slice(1), opts);
}

/** `main.ts <command>`: serve (with the embedded worker), worker, migrate, seed, admin. */
export async function runCli(argv: string[], opts: CliOptions = {}): Promise<void> {
  try {
    await main(argv, opts);
  } catch (err) {
    // Refusals the operator can act on are printed as they are, without a stack.
    console.error(err instanceof ConfigError || err instanceof DatabaseLockedError ? err.message : err);
    process.exit(1);
  }
}
