import { mkdirSync } from 'node:fs';
import { defaultSettings, SettingsService } from './settings/settings.service.ts';
import path from 'node:path';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { createMailer } from './mail/mailer.ts';
import { MediaService } from './media/media-service.ts';
import { AccessTokens } from './identity/access-token.ts';
import { promoteAdminEmail } from './modules/users/roles.service.ts';
import { LocalStorage } from './storage/local-storage.ts';
import { S3Storage } from './storage/s3-storage.ts';
import { applyStorageMoves } from './storage/storage-moves.ts';
import type { Storage } from './storage/storage.ts';

/** S3 when S3_BUCKET is set, else local disk under DATA_DIR/media. */
export function createStorage(config: Config): Storage {
  return config.s3 ? new S3Storage(config.s3) : new LocalStorage(path.join(config.dataDir, 'media'));
}

/**
 * Opens the database (migrating it, then moving stored files a migration renamed, and promoting
 * ADMIN_EMAIL's account), storage and token keys: everything a process needs.
 */
export async function createContext(config: Config): Promise<AppContext> {
  mkdirSync(config.dataDir, { recursive: true });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'db'),
  });
  await migrate(database);
  const storage = createStorage(config);
  await applyStorageMoves(database.db, storage);
  await promoteAdminEmail(database.db, config);
  const settings = new SettingsService(database.db, defaultSettings(config));
  // Read once now, so the first mail has the instance's name (the mailer never waits for the database).
  await settings.get();
  return {
    config,
    database,
    db: database.db,
    storage,
    tokens: new AccessTokens(config.jwtSecret, config.accessTokenTtl),
    mailer: createMailer(config, settings),
    media: new MediaService(config.media),
    settings,
  };
}
