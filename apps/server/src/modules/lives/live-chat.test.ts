import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, type TestContext } from '../../../test/harness.ts';
import { call, expectError } from '../../../test/http.ts';
import type { UserRow } from '../users/users.repository.ts';

describe('live chat: comments on a live, pushed to its viewers', () => {
  let t: TestContext;
  let host: UserRow;
  let viewer: UserRow;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp();
    host = await createUser(t.ctx);
    viewer = await createUser(t.ctx);
    await t.ctx.settings.update({ livesEnabled: true });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(() => t.close());

  const newLive = async (body: object = {}) => (await call(t, 'POST', '/lives', { as: host, body: { title: 'Chat', ...body } })).body.data.live._id as string;

  /**
   * Opens the live's chat stream as a visitor (or as `as`); `next()` resolves at the next comment
   * event. node:http on a socket of its own, which `close()` destroys and waits for: the server is
   * then rid of it before the file's last close.
   */
  async function listen(liveId: string, as?: UserRow) {
    const headers = as ? await bearer(t.ctx, as) : {};
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      get(`${base}/lives/${liveId}/chat/stream`, { headers, agent: false }, resolve).on('error', reject);
    });
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    res.setEncoding('utf8');
    let text = '';
    let wake: (() => void) | undefined;
    // Everything that arrives is kept, and whoever waits is woken.
    res.on('data', (chunk: string) => {
      text += chunk;
      wake?.();
    });
    const count = () => text.split('\n\n').filter((e) => e.startsWith('event: comment')).length;
    let seen = 0;
    return {
      async next() {
        while (count() <= seen) await new Promise<void>((resolve) => (wake = resolve));
        seen += 1;
      },
      /** Comment events received, after waiting `ms` for any late one. */
      async countAfter(ms: number) {
        await new Promise((resolve) => setTimeout(resolve, ms));
        return count();
      },
      close: () =>
        new Promise<void>((resolve) => {
          res.socket.once('close', () => resolve());
          res.destroy();
        }),
    };
  }

  it('a comment posted on a live reaches another viewer at once; a watched word holds it back; a blocked user cannot post', async () => {
    const liveId = await newLive();
    const stream = await listen(liveId);
    const posted = await call(t, 'POST', `/comments/live/${liveId}`, { as: viewer, body: { content: 'Hello from the chat' } });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    expect(posted.body.data).toMatchObject({ entityType: 'live', entityId: liveId, content: 'Hello from the chat', state: 'published' });
    await stream.next();
    const listed = await call(t, 'GET', `/comments/live/${liveId}`);
    expect(listed.body.data.comments.map((c: { content: string }) => c.content)).toEqual(['Hello from the chat']);

    await call(t, 'POST', '/admin/watched-words', { as: await createUser(t.ctx, { role: 'admin' }), body: { word: 'spamword' } });
    const held = await call(t, 'POST', `/comments/live/${liveId}`, { as: viewer, body: { content: 'buy spamword now' } });
    expect(held.body.data.state).toBe('held');
    await call(t, 'POST', '/channel-blocks', { as: host, body: { userId: viewer.id } });
    expectError(await call(t, 'POST', `/comments/live/${liveId}`, { as: viewer, body: { content: 'again' } }), 403);
    // Neither the held comment nor the refused one was pushed; the host approving the held one is.
    expect(await stream.countAfter(300)).toBe(1);
    expect((await call(t, 'POST', `/comments/${held.body.data._id}/approve`, { as: host })).status).toBe(200);
    await stream.next();
    await stream.close();
  });

  it('a private live has no chat for others: no stream, no comments, no posting; its owner has all three', async () => {
    const liveId = await newLive({ privacy: 'private' });
    expectError(await call(t, 'GET', `/lives/${liveId}/chat/stream`), 404, 'Live not found');
    expectError(await call(t, 'POST', `/comments/live/${liveId}`, { as: viewer, body: { content: 'hi' } }), 404, 'Live not found');
    expectError(await call(t, 'GET', `/comments/live/${liveId}`, { as: viewer }), 404, 'Live not found');
    const own = await call(t, 'POST', `/comments/live/${liveId}`, { as: host, body: { content: 'note to self' } });
    expect(own.status).toBe(201);
    // Nor can its comments be liked by someone who cannot see the live.
    expectError(await call(t, 'POST', `/likes/comment/${own.body.data._id}/like`, { as: viewer }), 404);
    // Nor can another account open the stream; the owner's token opens it, and they hear their own chat.
    expectError(await call(t, 'GET', `/lives/${liveId}/chat/stream`, { as: viewer }), 404, 'Live not found');
    const mine = await listen(liveId, host);
    expect((await call(t, 'POST', `/comments/live/${liveId}`, { as: host, body: { content: 'second note' } })).status).toBe(201);
    await mine.next();
    await mine.close();
  });

  it('cuts a flood of chat messages from one account off with RATE_LIMIT_COMMENT, from any address; the refused one is not stored', async () => {
    const limited = await createTestApp({ RATE_LIMITS_ENABLED: 'true', RATE_LIMIT_COMMENT: '2' });
    try {
      const [owner, fan, neighbour] = [await createUser(limited.ctx), await createUser(limited.ctx), await createUser(limited.ctx)];
      await limited.ctx.settings.update({ livesEnabled: true });
      const liveId = (await call(limited, 'POST', '/lives', { as: owner, body: { title: 'Busy chat' } })).body.data.live._id;
      const say = (as: UserRow, content: string, from: string) => call(limited, 'POST', `/comments/live/${liveId}`, { as, body: { content }, from });
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await say(fan, `message ${i}`, '10.0.0.1'));
      expect(answers.map((a) => a.status)).toEqual([201, 201, 429]);
      expect(answers[2]!.body.message).toMatch(/^Too many requests, please try again in \d+ seconds\.$/);
      // A new address gives the same account no fresh allowance...
      expectError(await say(fan, 'from my phone', '10.0.0.2'), 429);
      // ...and someone else behind the flooding address (one household, one carrier NAT) still talks.
      expect((await say(neighbour, 'hello from next door', '10.0.0.1')).status).toBe(201);
      expect((await call(limited, 'GET', `/comments/live/${liveId}`)).body.data.comments).toHaveLength(3);
    } finally {
      await limited.close();
    }
  });
});
