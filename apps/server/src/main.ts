import { buildApp } from './app.ts';
import { createContext } from './boot.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { consoleLogger } from './jobs/console-logger.ts';
import { createWorker } from './jobs/create-worker.ts';

async function serve(config: Config) {
  const ctx = await createContext(config);
  const app = await buildApp(ctx, { logger: { level: config.logLevel } });
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

const commands: Record<string, (c: Config) => Promise<void>> = { serve, worker, migrate: migrateOnly };

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
  await command(config);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
