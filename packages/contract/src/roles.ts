/**
 * Account roles (ARCHITECTURE §8). No zod here: the web app's shell imports this file alone
 * (`@glimpse/contract/roles`), which keeps zod out of its entry chunk (ADR 017).
 */
export const roles = ['user', 'moderator', 'admin'] as const;
export type Role = (typeof roles)[number];

/** Staff (moderators and admins) administer the instance; the server's permission checks and the web app's menu share this rule. */
export const isStaff = (r: Role | undefined): boolean => r === 'moderator' || r === 'admin';
