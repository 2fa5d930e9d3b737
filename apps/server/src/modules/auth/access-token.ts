import type { Role } from '@glimpse/contract';
import { errors, jwtVerify, SignJWT } from 'jose';

/** Who an access token names. */
export interface TokenSubject {
  id: string;
  userName: string;
}

/** The caller of a request: the token's subject with the role stored now (never the token's word). */
export interface Viewer extends TokenSubject {
  role: Role;
}

export type VerifyResult = { ok: true; subject: TokenSubject } | { ok: false; reason: 'expired' | 'invalid' };

/** Short-lived HS256 access tokens; the subject is the user id. */
export class AccessTokens {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(viewer: TokenSubject, ttlSeconds = this.ttlSeconds): Promise<string> {
    return new SignJWT({ userName: viewer.userName })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(viewer.id)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(this.key);
  }

  async verify(token: string): Promise<VerifyResult> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.userName !== 'string') return { ok: false, reason: 'invalid' };
      return { ok: true, subject: { id: payload.sub, userName: payload.userName } };
    } catch (err) {
      return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
    }
  }
}
