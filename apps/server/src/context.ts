import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { Mailer } from './mail/mailer.ts';
import type { MediaService } from './media/media-service.ts';
import type { Storage } from './storage/storage.ts';
import type { AccessTokens } from './identity/access-token.ts';
import type { SettingsService } from './settings/settings.service.ts';

/** The app's long-lived adapters, built once at boot and handed to every module. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  storage: Storage;
  tokens: AccessTokens;
  mailer: Mailer;
  media: MediaService;
  /** Instance settings (admin-changed, cached). */
  settings: SettingsService;
}

export interface ModuleOptions {
  ctx: AppContext;
}
