import { instanceSettingsPatch, type InstanceSettings, type InstanceSettingsPatch, type RegistrationMode } from '@glimpse/contract';
import { t } from '@/lib/i18n/i18n.ts';

/** Quotas are entered in these units, decimal as the quota's messages and the storage bar say them (1 MB = 1,000,000 bytes); empty means no limit. */
export const UNITS = { MB: 1e6, GB: 1e9 } as const;
export type Unit = keyof typeof UNITS;

/** The settings as the form holds them: numbers as typed text, domains one per line. */
export interface SettingsFormValues {
  name: string;
  description: string;
  about: string;
  registrationMode: RegistrationMode;
  signupAllowedDomains: string;
  signupBlockedDomains: string;
  quota: string;
  quotaUnit: Unit;
  dailyQuota: string;
  dailyQuotaUnit: Unit;
  maxVideoMinutes: string;
  commentsEnabledByDefault: boolean;
  livesEnabled: boolean;
  maxLivesPerInstance: string;
  maxLivesPerUser: string;
  maxLiveMinutes: string;
}
export type SettingsField = keyof SettingsFormValues;

function quotaFields(bytes: number | null): [string, Unit] {
  if (bytes === null) return ['', 'GB'];
  const unit: Unit = bytes >= UNITS.GB ? 'GB' : 'MB';
  return [String(Math.round((bytes / UNITS[unit]) * 100) / 100), unit];
}

export function toFormValues(s: InstanceSettings): SettingsFormValues {
  const [quota, quotaUnit] = quotaFields(s.quotaBytes);
  const [dailyQuota, dailyQuotaUnit] = quotaFields(s.dailyQuotaBytes);
  return {
    name: s.name,
    description: s.description,
    about: s.about,
    registrationMode: s.registrationMode,
    signupAllowedDomains: s.signupAllowedDomains.join('\n'),
    signupBlockedDomains: s.signupBlockedDomains.join('\n'),
    quota,
    quotaUnit,
    dailyQuota,
    dailyQuotaUnit,
    maxVideoMinutes: String(s.maxVideoMinutes),
    commentsEnabledByDefault: s.commentsEnabledByDefault,
    livesEnabled: s.livesEnabled,
    maxLivesPerInstance: String(s.maxLivesPerInstance),
    maxLivesPerUser: String(s.maxLivesPerUser),
    maxLiveMinutes: String(s.maxLiveMinutes),
  };
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** Text to bytes: '' is no limit (null); undefined when it is not a size. */
function toBytes(text: string, unit: Unit): number | null | undefined {
  if (text.trim() === '') return null;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 ? Math.round(n * UNITS[unit]) : undefined;
}

/**
 * The PATCH body for these values, checked with the contract's schema (the server checks it again),
 * or each field's first problem. Which field a problem belongs to comes from the schema's issue path.
 */
export function toPatch(v: SettingsFormValues): { patch: InstanceSettingsPatch } | { errors: Partial<Record<SettingsField, string>> } {
  const errors: Partial<Record<SettingsField, string>> = {};
  const quotaBytes = toBytes(v.quota, v.quotaUnit);
  const dailyQuotaBytes = toBytes(v.dailyQuota, v.dailyQuotaUnit);
  if (quotaBytes === undefined) errors.quota = t('admin.quotaProblem');
  if (dailyQuotaBytes === undefined) errors.dailyQuota = t('admin.quotaProblem');
  const whole = (text: string) => (text.trim() === '' ? NaN : Number(text));
  const minutes = whole(v.maxVideoMinutes);
  const allowed = lines(v.signupAllowedDomains);
  const blocked = lines(v.signupBlockedDomains);
  const parsed = instanceSettingsPatch.safeParse({
    name: v.name,
    description: v.description,
    about: v.about,
    registrationMode: v.registrationMode,
    signupAllowedDomains: allowed,
    signupBlockedDomains: blocked,
    ...(quotaBytes !== undefined ? { quotaBytes } : {}),
    ...(dailyQuotaBytes !== undefined ? { dailyQuotaBytes } : {}),
    maxVideoMinutes: minutes,
    commentsEnabledByDefault: v.commentsEnabledByDefault,
    livesEnabled: v.livesEnabled,
    maxLivesPerInstance: whole(v.maxLivesPerInstance),
    maxLivesPerUser: whole(v.maxLivesPerUser),
    maxLiveMinutes: whole(v.maxLiveMinutes),
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [key, index] = issue.path;
      const field: SettingsField = key === 'quotaBytes' ? 'quota' : key === 'dailyQuotaBytes' ? 'dailyQuota' : (key as SettingsField);
      if (errors[field]) continue;
      if (field === 'maxVideoMinutes' || field === 'maxLiveMinutes') errors[field] = t('admin.minutesProblem');
      else if (field === 'maxLivesPerInstance' || field === 'maxLivesPerUser') errors[field] = t('admin.livesCapProblem');
      else if (typeof index === 'number' && (field === 'signupAllowedDomains' || field === 'signupBlockedDomains')) {
        const list = field === 'signupAllowedDomains' ? allowed : blocked;
        errors[field] = `"${list[index]}": ${issue.message}`;
      } else errors[field] = issue.message;
    }
  }
  return Object.keys(errors).length > 0 ? { errors } : { patch: parsed.data! };
}
