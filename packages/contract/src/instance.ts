import { z } from 'zod';
import { oneLine } from './text.ts';

/** Account states (ARCHITECTURE §8): only an `active` account logs in and acts. */
export const accountStates = ['active', 'pending_approval', 'suspended'] as const;
export type AccountState = (typeof accountStates)[number];

/** Who may create an account: anyone, anyone once a moderator approves, or nobody. */
export const registrationModes = ['open', 'approval', 'closed'] as const;
export type RegistrationMode = (typeof registrationModes)[number];

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'Enter a domain such as example.com');
const bytes = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * The instance's settings (ARCHITECTURE §8): stored in one row, read through the server's cached
 * settings service, changed by admins. Quotas are bytes per user; null means no limit.
 */
export const instanceSettings = z.object({
  name: oneLine().min(1, 'Please enter a name').max(60),
  description: z.string().trim().max(500),
  /** The about/terms page, markdown (rendered without raw HTML). */
  about: z.string().max(20_000),
  registrationMode: z.enum(registrationModes),
  signupAllowedDomains: z.array(domain).max(500),
  signupBlockedDomains: z.array(domain).max(500),
  quotaBytes: bytes.nullable(),
  dailyQuotaBytes: bytes.nullable(),
  maxVideoMinutes: z.number().int().min(1).max(24 * 60),
  commentsEnabledByDefault: z.boolean(),
  /** Lives (ADR 024): off until an admin turns them on; caps on concurrent lives and on a session's length. */
  livesEnabled: z.boolean(),
  maxLivesPerInstance: z.number().int().min(1).max(1000),
  maxLivesPerUser: z.number().int().min(1).max(100),
  maxLiveMinutes: z.number().int().min(1).max(24 * 60),
});
export type InstanceSettings = z.infer<typeof instanceSettings>;

/** PATCH admin/settings: any subset of the settings; the answer is the whole set. */
export const instanceSettingsPatch = instanceSettings.partial().strict();
export type InstanceSettingsPatch = z.infer<typeof instanceSettingsPatch>;

/** What every visitor's app reads of the instance (GET config). */
export const publicInstance = instanceSettings.pick({ name: true, description: true, registrationMode: true, maxVideoMinutes: true });
export type PublicInstance = z.infer<typeof publicInstance>;

/** GET instance/about: what the public about page shows. */
export const instanceAbout = instanceSettings.pick({ name: true, description: true, about: true });
export type InstanceAbout = z.infer<typeof instanceAbout>;

export const instanceMessages = {
  settingsFetched: 'Instance settings fetched successfully',
  settingsUpdated: 'Instance settings updated successfully',
  aboutFetched: 'About page fetched successfully',
} as const;
