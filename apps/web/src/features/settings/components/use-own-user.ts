import { useOutletContext } from 'react-router';
import type { StoredUser } from '@/lib/session.ts';

/** The logged-in owner of the user/@x area, handed down by the guard in user-layout. */
export const useOwnUser = () => useOutletContext<{ user: StoredUser }>().user;
