import { createHash, randomBytes } from 'node:crypto';

/** A random 256-bit token, URL-safe. */
export const randomToken = (): string => randomBytes(32).toString('base64url');
/** Tokens are stored only as this hash, so a database leak does not leak live tokens. */
export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');
