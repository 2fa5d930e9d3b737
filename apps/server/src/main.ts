import { buildApp } from './app.ts';
import { createContext } from './boot.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';

async function serve(config: Config) {
  const ctx = await createContext(config);
  const app = await buildApp(ctx, { logger: { level: config.logLevel } });
  const close = async () => {
    await app.close();
    await ctx.database.close();
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  await app.listen({ host: config.host, port: config.port });
  const shown = config.host === '0.0.0.0' ? 'localhost' : config.host;
  console.log(`Glimpse is running at http://${shown}:${config.port}`);
}

async function migrateOnly(config: Config) {
  const ctx = await createContext(config);
  await ctx.database.close();
  console.log('Database is migrated.');
}

const commands: Record<string, (c: Config) => Promise<void>> = { serve, migrate: migrateOnly };

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
