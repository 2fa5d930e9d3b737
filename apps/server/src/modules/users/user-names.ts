import { USERNAME_MAX } from '@glimpse/contract';
import type { UsersRepository } from './users.repository.ts';

/** A handle from a full name: lower-case ASCII letters and digits only ('José Smith' -> 'josesmith'). */
export function userNameFromFullName(fullName: string): string {
  const base = fullName
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, USERNAME_MAX);
  return base || 'user';
}

// Numbered candidates are looked up by this much of the wanted name; covers suffixes up to 6 digits.
const STEM = USERNAME_MAX - 6;

/** `wanted` when free, else wanted + the smallest free number (shortened to stay within the maximum). */
export async function freeUserName(users: UsersRepository, wanted: string): Promise<string> {
  const taken = new Set(await users.userNamesStartingWith(wanted.slice(0, STEM)));
  if (!taken.has(wanted)) return wanted;
  for (let n = 1; ; n += 1) {
    const suffix = String(n);
    const candidate = wanted.slice(0, USERNAME_MAX - suffix.length) + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}
