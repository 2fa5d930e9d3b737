import { instanceSettings, type InstanceSettings } from '@glimpse/contract';
import type { Config } from '../config.ts';
import type { Executor } from '../db/client.ts';
import { SettingsRepository } from './settings.repository.ts';

/** How long a process trusts its copy: another API process's change shows within this time. */
const CACHE_MS = 5_000;

/** What an instance starts with; MAX_VIDEO_MINUTES stays the default duration limit. */
export function defaultSettings(config: Pick<Config, 'media'>): InstanceSettings {
  return {
    name: 'Glimpse',
    description: '',
    about: '',
    registrationMode: 'open',
    signupAllowedDomains: [],
    signupBlockedDomains: [],
    quotaBytes: null,
    dailyQuotaBytes: null,
    maxVideoMinutes: Math.max(1, Math.round(config.media.maxDurationSeconds / 60)),
    commentsEnabledByDefault: true,
    livesEnabled: false,
    maxLivesPerInstance: 4,
    maxLivesPerUser: 1,
    maxLiveMinutes: 240,
  };
}

/**
 * The one way to read instance settings (ARCHITECTURE §8): stored values over the defaults, cached
 * per process. A stored value that no longer fits the schema (an older version's) falls back to
 * its default instead of breaking every request.
 */
export class SettingsService {
  private cached: { value: InstanceSettings; at: number } | null = null;

  constructor(
    private readonly db: Executor,
    private readonly defaults: InstanceSettings,
  ) {}

  async get(): Promise<InstanceSettings> {
    if (this.cached && Date.now() - this.cached.at < CACHE_MS) return this.cached.value;
    return this.remember(await new SettingsRepository(this.db).read());
  }

  /**
   * The settings as last read, at once: for what may run inside a caller's transaction (a mail sent
   * before its transaction commits). Waiting for the database there would wait forever on PGlite,
   * whose one connection the transaction holds. A stale copy is read again in the background.
   */
  latest(): InstanceSettings {
    if (!this.cached || Date.now() - this.cached.at >= CACHE_MS) void this.get().catch(() => undefined);
    return this.cached?.value ?? this.defaults;
  }

  /** Admins only (checked by the caller through can(viewer, 'configure')). */
  async update(changes: Partial<InstanceSettings>): Promise<InstanceSettings> {
    return this.remember(await new SettingsRepository(this.db).merge(changes));
  }

  private remember(stored: unknown): InstanceSettings {
    const value = { ...this.defaults };
    const record = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
    for (const key of Object.keys(value) as (keyof InstanceSettings)[]) {
      const parsed = instanceSettings.shape[key].safeParse(record[key]);
      if (parsed.success) Object.assign(value, { [key]: parsed.data });
    }
    this.cached = { value, at: Date.now() };
    return value;
  }
}
