import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, refreshAccessToken } from './api-client.ts';
import { session, toStoredUser, useStoredUser, type ApiUser, type StoredUser } from './session.ts';

/*
 * The current user: GET users/me as a query, read by the app's chrome, the staff area and the
 * account screens alike, so it is shared code rather than part of the auth feature.
 */

export const meQueryKey = ['auth', 'me'] as const;

/** GET users/me: the logged-in user, or null when the call says we are not logged in. */
export async function fetchMe(signal?: AbortSignal): Promise<ApiUser | null> {
  try {
    const { data } = await api.get<{ user: ApiUser }>('users/me', undefined, signal);
    session.setUser(toStoredUser(data.user));
    return data.user;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

export const meQueryOptions = queryOptions({ queryKey: meQueryKey, queryFn: ({ signal }) => fetchMe(signal), staleTime: 5 * 60_000 });

/**
 * The current user. Logged-in state comes from GET users/me (spec §4); until it answers,
 * the stored user keeps the UI from flickering. With neither a stored user nor an access token there
 * is nothing to ask with (the refresh cookie is traded only for a stored user): a visitor, and no request.
 */
export function useAuth(): { user: StoredUser | null; isLoggedIn: boolean; isChecking: boolean } {
  const stored = useStoredUser();
  const ask = stored !== null || session.getAccessToken() !== null;
  const me = useQuery({ ...meQueryOptions, enabled: ask });
  const user = me.data === null ? null : stored;
  return { user, isLoggedIn: user !== null, isChecking: ask && me.isPending };
}

/**
 * At start-up the access token is gone (memory only): if a user is stored, trade the
 * refresh cookie for a new one before the first call. Calls made meanwhile wait for it.
 */
export function restoreSession(): void {
  if (session.getUser() && !session.getAccessToken()) refreshAccessToken({ silent: true }).catch(() => undefined);
}

/** Sync the me query after login/logout so every consumer of useAuth re-renders. */
export function useSetMe() {
  const qc = useQueryClient();
  return (user: ApiUser | null) => {
    qc.setQueryData(meQueryKey, user);
    if (!user) qc.removeQueries({ predicate: (q) => q.queryKey[0] !== meQueryKey[0] });
  };
}
