import { buildApp } from './app.ts';
import { createContext } from './boot.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { consoleLogger } from './jobs/console-logger.ts';
import { createWorker } from './jobs/create-worker.ts';
import type { AppContext } from './context.ts';
import { DemoRefusedError, seedDemo } from './modules/demo/demo.service.ts';

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
async function logMediaEngine(ctx: AppContext, log: { info(o: object, m: string): void; error(o: object, m: string): void }) {
  const s = await ctx.media.status();
  if (s.problems.length === 0) log.info({ engine: s.engine, version: s.version }, 'media engine ready');
  else log.error({ engine: s.engine, version: s.version, problems: s.problems }, 'media engine unusable: uploads are refused');
}

async function serve(config: Config, args: string[]) {
  const ctx = await createContext(config);
  // `npm start -- --demo` or DEMO=1: demo content on the first start of an empty instance.
  if (config.demo || args.includes('--demo')) await addDemoContent(ctx);
  const app = await buildApp(ctx, { logger: { level: config.logLevel } });
  await logMediaEngine(ctx, app.log);
  const worker = config.worker.enabled ? createWorker(ctx, app.log) : undefined;
  const close = async () => {
    await worker?.stop();
    await app.close();
    await ctx.database.close();
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
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

/** The job worker alone (`npm run worker`): transcodes and housekeeping, no HTTP. */
async function worker(config: Config) {
  const ctx = await createContext(config);
  const log = consoleLogger(config.logLevel);
  await logMediaEngine(ctx, log);
  const w = createWorker(ctx, log);
  const close = async () => {
    await w.stop();
    await ctx.database.close();
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
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

const commands: Record<string, (c: Config, args: string[]) => Promise<void>> = { serve, worker, migrate: migrateOnly, seed };

async function main() {
  const name = process.argv[2] ?? 'serve';
  const command = commands[name];
  if (!command) {
    console.error(`Unknown command '${name}'. Use one of: ${Object.keys(commands).join(', ')}`);
    process.exit(2);
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  await command(config, process.argv.slice(3));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
