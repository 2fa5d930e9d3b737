import type { Role } from '@glimpse/contract';
import { useSyncExternalStore } from 'react';
import { storage } from './storage.ts';

/** The logged-in user as kept in localStorage (spec §3). */
export interface StoredUser {
  userId: string;
  userName: string;
  fullName: string;
  email: string;
  avatar: { url: string } | null;
  cover: { url: string } | null;
  /** Absent in a user stored before roles existed; GET users/me fills it in. */
  role?: Role;
}

/** Shape of the user in login and GET users/me answers. */
export interface ApiUser {
  _id: string;
  userName: string;
  fullName: string;
  email: string;
  avatar: { url: string } | null;
  coverImage: { url: string } | null;
  role?: Role;
}

const USER_KEY = 'user';
const listeners = new Set<() => void>();

// The access token lives only in memory (ARCHITECTURE §5); the refresh token is an httpOnly cookie.
let accessToken: string | null = null;
let storedUser: StoredUser | null = readStoredUser();
// A stored user dropped because the server ended the session (not a logout): spec §6's toasts.
let ended = false;

function readStoredUser(): StoredUser | null {
  const parsed = storage.getJson(USER_KEY) as Partial<StoredUser> | null;
  return parsed && typeof parsed.userId === 'string' && typeof parsed.userName === 'string' ? (parsed as StoredUser) : null;
}

function emit() {
  for (const l of listeners) l();
}

export function toStoredUser(u: ApiUser): StoredUser {
  return {
    userId: u._id,
    userName: u.userName,
    fullName: u.fullName,
    email: u.email,
    avatar: u.avatar,
    cover: u.coverImage,
    role: u.role,
  };
}

export const session = {
  getAccessToken: () => accessToken,
  setAccessToken(token: string | null) {
    accessToken = token;
  },
  getUser: () => storedUser,
  setUser(user: StoredUser | null) {
    if (user) ended = false;
    storedUser = user;
    if (user) storage.set(USER_KEY, JSON.stringify(user));
    else storage.remove(USER_KEY);
    emit();
  },
  /** Forget both the access token and the stored user. */
  clear() {
    accessToken = null;
    if (storedUser === null && storage.get(USER_KEY) === null) return;
    session.setUser(null);
  },
  /** The server refused the session (401, failed refresh): clear, remembering it ended for a stored user. */
  end() {
    if (storedUser) ended = true;
    session.clear();
  },
  /** Whether the stored user was dropped by end() since the last login. */
  wasEnded: () => ended,
  /** Re-read localStorage (tests, other tabs). */
  reload() {
    ended = false;
    storedUser = readStoredUser();
    emit();
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};

/** The stored user, re-rendering on login, logout and profile changes. */
export function useStoredUser(): StoredUser | null {
  return useSyncExternalStore(session.subscribe, session.getUser, () => null);
}
