import { messages, type AccountState, type Role } from '@glimpse/contract';
import { ApiError } from '../lib/errors.ts';

/** The part of an account that decides whether it may log in and act (ARCHITECTURE §8). */
export interface AccountAccess {
  userName: string;
  role: Role;
  state: AccountState;
  stateReason: string | null;
  suspendedUntil: Date | null;
}

/** Active, or suspended until a time that has passed (the suspension ends by itself). */
export function isActive(a: Pick<AccountAccess, 'state' | 'suspendedUntil'>, now = new Date()): boolean {
  if (a.state === 'active') return true;
  return a.state === 'suspended' && a.suspendedUntil !== null && a.suspendedUntil <= now;
}

/** What a login or refresh of an account that may not act is told: a 403 with the reason. */
export function accountRefusal(a: Pick<AccountAccess, 'state' | 'stateReason' | 'suspendedUntil'>): ApiError | null {
  if (isActive(a)) return null;
  if (a.state === 'pending_approval') return new ApiError(403, messages.accountPendingApproval);
  const until = a.suspendedUntil ? ` until ${a.suspendedUntil.toISOString().slice(0, 10)}` : '';
  return new ApiError(403, `${messages.accountSuspended}${until}${a.stateReason ? `: ${a.stateReason}` : ''}`);
}

/**
 * Why a route that reads the account itself (in its own statement, ADR 025) refuses a token: what
 * the viewer plugin would have set as `rejectedToken`. `actingAs` (viewer.ts) answers it as a 401.
 */
export class AccountRefused extends Error {
  constructor(readonly reason: 'invalid' | 'suspended' | 'revoked') {
    super(`account refused: ${reason}`);
  }
}
