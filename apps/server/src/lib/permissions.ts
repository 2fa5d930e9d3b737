import { isStaff, type Role } from '@glimpse/contract';

/**
 * What an account may do beyond its own content (ARCHITECTURE §8). Every staff right is checked
 * here, on the server; the web app only hides what would be refused.
 * - `administer`: open the staff area (overview, moderation log);
 * - `moderate`: reports, take-downs, suspensions, registration approval, held tweets;
 * - `configure`: instance settings and watched words;
 * - `deleteAccounts`: remove someone else's account;
 * - `viewPrivate`: open anyone's private (or scheduled) video by its id (ADR 013).
 */
export type Action = 'administer' | 'moderate' | 'configure' | 'deleteAccounts' | 'viewPrivate';

/** The account asking, with its role as stored (never as a token or the web app claims it). */
export interface Actor {
  role: Role;
}

export function can(viewer: Actor | null, action: Action): boolean {
  if (!viewer) return false;
  switch (action) {
    case 'administer':
    case 'moderate':
    case 'viewPrivate':
      return isStaff(viewer.role);
    case 'configure':
    case 'deleteAccounts':
      return viewer.role === 'admin';
  }
}

/**
 * Whether staff may act against an account (suspend it, or remove its content): nobody acts
 * against an admin ('admin'), only admins against moderators ('staff'); null when allowed.
 */
export function canActAgainst(actor: Actor, targetRole: Role): 'admin' | 'staff' | null {
  if (targetRole === 'admin') return 'admin';
  if (targetRole === 'moderator' && actor.role !== 'admin') return 'staff';
  return null;
}
