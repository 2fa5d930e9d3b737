import { describe, expect, it } from 'vitest';
import { AccessTokens } from './access-token.ts';

const SECRET = 'access-token-test-secret-0123456789abcdef';
const ada = { id: '5b0f1b5e-8e0e-4c47-9d5a-3f3c2f6a1e01', userName: 'ada' };

describe('AccessTokens', () => {
  it('keeps answering a verified token until it expires, then calls it expired', async () => {
    let now = Date.now();
    const tokens = new AccessTokens(SECRET, 60, () => now);
    const token = await tokens.sign(ada);
    expect(await tokens.verify(token)).toEqual({ ok: true, subject: ada });
    now += 30_000;
    expect(await tokens.verify(token)).toEqual({ ok: true, subject: ada });
    now += 31_000;
    expect(await tokens.verify(token)).toEqual({ ok: false, reason: 'expired' });
    // Dropped from memory: the next check is jose's own, with the same answer.
    expect(await tokens.verify(token)).toEqual({ ok: false, reason: 'expired' });
  });

  it('never remembers a token whose signature is wrong', async () => {
    const tokens = new AccessTokens(SECRET, 60);
    const other = new AccessTokens('another-secret-another-secret-0123456789', 60);
    const forged = await other.sign(ada);
    expect(await tokens.verify(forged)).toEqual({ ok: false, reason: 'invalid' });
    expect(await tokens.verify(forged)).toEqual({ ok: false, reason: 'invalid' });
    const good = await tokens.sign(ada);
    const [head, body, sig] = good.split('.');
    const tampered = `${head}.${body}.${sig!.slice(0, -2)}${sig!.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await tokens.verify(good)).toMatchObject({ ok: true });
    expect(await tokens.verify(tampered)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('carries the session it was issued for (sid), and refuses a sid that is not a session id', async () => {
    const tokens = new AccessTokens(SECRET, 60);
    const session = { ...ada, sessionId: '0190a0b1-7c2d-7e3f-8a4b-5c6d7e8f9a0b' };
    expect(await tokens.verify(await tokens.sign(session))).toEqual({ ok: true, subject: session });
    // Only the server signs: a sid that is not a uuid can only come from a bug, never be looked up.
    const { SignJWT } = await import('jose');
    const odd = await new SignJWT({ userName: 'ada', sid: 'x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(ada.id)
      .setExpirationTime('1m')
      .sign(new TextEncoder().encode(SECRET));
    expect(await tokens.verify(odd)).toEqual({ ok: false, reason: 'invalid' });
  });
});
