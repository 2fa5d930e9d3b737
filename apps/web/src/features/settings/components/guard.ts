import type { StoredUser } from '@/lib/session.ts';

export const OWN_CHANNEL_MESSAGE = 'Please login to view your Channel.';
export const DASHBOARD_LOGIN_MESSAGE = 'Please login to view your channel.';

/**
 * Spec §2 guard of the own-channel area: without a stored user the dashboard says
 * 'Please login to view your channel.'; any other handle than the logged-in one says
 * 'Please login to view your Channel.'; both go home. A rename in progress (the page
 * moves to the new handle before the stored user follows) passes.
 */
export function guardMessage(user: StoredUser | null, userName: string, onDashboard: boolean, renaming: boolean): string | null {
  if (!user) return onDashboard ? DASHBOARD_LOGIN_MESSAGE : OWN_CHANNEL_MESSAGE;
  if (user.userName === userName || renaming) return null;
  return OWN_CHANNEL_MESSAGE;
}
