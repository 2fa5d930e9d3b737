import { createHmac, timingSafeEqual } from 'node:crypto';
import { unsubscribeScopeOf, type UnsubscribeScope } from '@glimpse/contract';
import { isUuid } from '../../lib/ids.ts';

const VERSION = 'v1';

/**
 * The token of a mail's unsubscribe links: `v1.<userId>.<scope>.<mac>`, HMAC-SHA256 over the rest
 * with a key of its own derived from the instance's signing secret. It does not expire (an old
 * mail's link keeps working) and only ever turns mails off, so it carries no other right. The
 * version lets a future format (or key) be told apart.
 */
export class UnsubscribeTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('glimpse notification unsubscribe').digest();
  }

  private mac(userId: string, scope: UnsubscribeScope): string {
    return createHmac('sha256', this.key).update(`${VERSION}.${userId}.${scope}`).digest('base64url');
  }

  sign(userId: string, scope: UnsubscribeScope): string {
    return `${VERSION}.${userId}.${scope}.${this.mac(userId, scope)}`;
  }

  /** The user and scope a genuine token names; null for anything else. */
  verify(token: string): { userId: string; scope: UnsubscribeScope } | null {
    const [version, userId, , mac, ...rest] = token.split('.');
    const scope = unsubscribeScopeOf(token);
    if (version !== VERSION || !userId || !isUuid(userId) || !scope || mac === undefined || rest.length > 0) return null;
    const expected = Buffer.from(this.mac(userId, scope));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected) ? { userId, scope } : null;
  }
}
