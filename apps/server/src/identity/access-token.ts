import type { Role } from '@glimpse/contract';
import { errors, jwtVerify, SignJWT } from 'jose';
import { isUuid } from '../lib/ids.ts';

/** Who an access token names. */
export interface TokenSubject {
  id: string;
  userName: string;
  /**
   * The login session (refresh-token family) the token was issued for, its `sid` claim: a token
   * dies with its session (ADR 003, addendum). Tokens the server makes for itself (demo seeding) have none.
   */
  sessionId?: string;
}

/** The caller of a request: the token's subject with the role stored now (never the token's word). */
export interface Viewer extends TokenSubject {
  role: Role;
}

export type VerifyResult = { ok: true; subject: TokenSubject } | { ok: false; reason: 'expired' | 'invalid' };

/** Verified tokens remembered at most: a client sends the same token on every call until it expires. */
const VERIFIED_CACHE = 10_000;

/** Short-lived HS256 access tokens; the subject is the user id. */
export class AccessTokens {
  private readonly key: Uint8Array;
  /**
   * Tokens whose signature was checked, with their expiry (ms): a signature cannot stop being good,
   * so only the expiry is checked again. WebCrypto's HMAC cost ~5 ms of latency per request under load.
   */
  private readonly verified = new Map<string, { subject: TokenSubject; expiresAt: number }>();

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly now = () => Date.now(),
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(viewer: TokenSubject, ttlSeconds = this.ttlSeconds): Promise<string> {
    return new SignJWT({ userName: viewer.userName, ...(viewer.sessionId ? { sid: viewer.sessionId } : {}) })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(viewer.id)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(this.key);
  }

  async verify(token: string): Promise<VerifyResult> {
    const known = this.verified.get(token);
    if (known) {
      if (this.now() < known.expiresAt) return { ok: true, subject: known.subject };
      this.verified.delete(token);
      return { ok: false, reason: 'expired' };
    }
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], currentDate: new Date(this.now()) });
      if (typeof payload.sub !== 'string' || typeof payload.userName !== 'string' || typeof payload.exp !== 'number') return { ok: false, reason: 'invalid' };
      if (payload.sid !== undefined && (typeof payload.sid !== 'string' || !isUuid(payload.sid))) return { ok: false, reason: 'invalid' };
      const subject: TokenSubject = { id: payload.sub, userName: payload.userName, ...(payload.sid ? { sessionId: payload.sid } : {}) };
      // The oldest entry goes first (a Map keeps insertion order).
      if (this.verified.size >= VERIFIED_CACHE) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, { subject, expiresAt: payload.exp * 1000 });
      return { ok: true, subject };
    } catch (err) {
      return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
    }
  }
}
