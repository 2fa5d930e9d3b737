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

export const accountMessages = {
  quotaUsedUp: (used: number, limit: number) => `Your upload quota is used up: ${formatBytes(used)} of ${formatBytes(limit)}`,
  dailyQuotaUsedUp: (used: number, limit: number) =>
    `Your daily upload quota is used up: ${formatBytes(used)} of ${formatBytes(limit)} in the last 24 hours`,
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
