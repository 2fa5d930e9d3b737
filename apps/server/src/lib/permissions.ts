import { isStaff, type Role } from '@glimpse/contract';

/**
 * What an account may do beyond its own content (ARCHITECTURE §8). Every staff right is checked
 * here, on the server; the web app only hides what would be refused. `administer` is the staff
 * area (moderators and admins); later actions (take down, suspend, instance settings) join it.
 */
export type Action = 'administer';

/** The account asking, with its role as stored (never as a token or the web app claims it). */
export interface Actor {
  role: Role;
}

export function can(viewer: Actor | null, action: Action): boolean {
  if (!viewer) return false;
  switch (action) {
    case 'administer':
      return isStaff(viewer.role);
  }
}
