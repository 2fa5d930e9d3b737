import { z } from 'zod';
import { messages } from './auth.ts';
import { id } from './common.ts';

/**
 * Bytes as people read them: decimal units (1 GB = 1,000,000,000 bytes), one decimal, a trailing
 * ".0" dropped ("4.8 GB", "5 GB", "512 kB", "80 bytes"). Used by the quota message and the dashboard.
 */
export function formatBytes(bytes: number): string {
  const units: [number, string][] = [
    [1e12, 'TB'],
    [1e9, 'GB'],
    [1e6, 'MB'],
    [1e3, 'kB'],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) return `${Number((Math.floor((bytes / size) * 10) / 10).toFixed(1))} ${unit}`;
  }
  return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
}

/** Why an upload is refused by a quota: nothing is left, the video alone is larger, or it is larger than what is left. */
export interface QuotaRefusals {
  usedUp: (used: number, limit: number) => string;
  largerThanQuota: (limit: number) => string;
  largerThanLeft: (used: number, limit: number) => string;
}

export const accountMessages = {
  quota: {
    usedUp: (used, limit) => `Your upload quota is used up: ${formatBytes(used)} of ${formatBytes(limit)}`,
    largerThanQuota: (limit) => `This video is larger than your upload quota of ${formatBytes(limit)}`,
    largerThanLeft: (used, limit) => `This video is larger than what remains of your upload quota: ${formatBytes(limit - used)} of ${formatBytes(limit)} left`,
  } satisfies QuotaRefusals,
  dailyQuota: {
    usedUp: (used, limit) => `Your daily upload quota is used up: ${formatBytes(used)} of ${formatBytes(limit)} in the last 24 hours`,
    largerThanQuota: (limit) => `This video is larger than your daily upload quota of ${formatBytes(limit)}`,
    largerThanLeft: (used, limit) =>
      `This video is larger than what remains of your daily upload quota: ${formatBytes(limit - used)} of ${formatBytes(limit)} left`,
  } satisfies QuotaRefusals,
  storageFetched: 'Storage fetched successfully',
  passwordWrong: 'The password is incorrect; your account was not deleted',
  deleted: 'Your account was deleted',
  adminDeleted: 'Account deleted',
  lastAdmin: 'The last admin account cannot be deleted: make another account admin first',
  notYourselfHere: 'Delete your own account in your settings, with your password',
  userNotFound: 'User not found',
} as const;

/** What the viewer stores and may still store (null limits: none). */
export const storageUsage = z.object({
  usedBytes: z.number(),
  quotaBytes: z.number().nullable(),
  remainingBytes: z.number().nullable(),
  dailyUsedBytes: z.number(),
  dailyQuotaBytes: z.number().nullable(),
});
export type StorageUsage = z.infer<typeof storageUsage>;

export const deleteAccountBody = z.object({
  password: z.string({ message: messages.passwordRequired }).min(1, messages.passwordRequired).max(200),
});
export type DeleteAccountBody = z.infer<typeof deleteAccountBody>;

export const userIdParam = z.object({ userId: id });
