import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { notificationMessages, notificationParams, notificationSettingsPatch, notificationsQuery, unsubscribeQuery } from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { openEventStream } from '../../http/event-stream.ts';
import { tooMany } from '../../lib/errors.ts';
import { ok } from '../../lib/reply.ts';
import { loginFirst, requireViewer } from '../../identity/viewer.ts';
import { LiveNotifications, STREAMS_PER_USER } from './live.ts';
import { NotificationsService } from './notifications.service.ts';

/** The viewer's notifications (issue #14): the list, the unread count, marking read, and a live stream of the count. */
export const notificationsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = new NotificationsService(ctx);
  const live = new LiveNotifications(ctx.database);
  const openStreams = new Set<() => void>();
  const schema = { tags: ['notifications'], security: [{ bearer: [] }] };
  const login = loginFirst(notificationMessages.loginRequired);
  const viewerOf = (request: Parameters<typeof requireViewer>[0]) => requireViewer(request, notificationMessages.loginRequired);

  // Open streams would keep the server from closing.
  app.addHook('preClose', async () => {
    for (const end of openStreams) end();
    await live.close();
  });

  app.get('/notifications', { schema: { ...schema, querystring: notificationsQuery }, onRequest: login }, async (request, reply) =>
    ok(reply, await service.list(viewerOf(request).id, request.query), notificationMessages.listed),
  );

  app.get('/notifications/unread-count', { schema, onRequest: login }, async (request, reply) =>
    ok(reply, await service.unread(viewerOf(request).id), notificationMessages.counted),
  );

  app.patch('/notifications/:id/read', { schema: { ...schema, params: notificationParams }, onRequest: login }, async (request, reply) =>
    ok(reply, await service.markRead(viewerOf(request).id, request.params.id), notificationMessages.markedRead),
  );

  app.get('/notifications/settings', { schema, onRequest: login }, async (request, reply) =>
    ok(reply, await service.settings(viewerOf(request).id), notificationMessages.settingsFetched),
  );

  app.patch('/notifications/settings', { schema: { ...schema, body: notificationSettingsPatch }, onRequest: login }, async (request, reply) =>
    ok(reply, await service.saveSettings(viewerOf(request).id, request.body), notificationMessages.settingsSaved),
  );

  /**
   * One-click unsubscribe (RFC 8058): mail clients POST `List-Unsubscribe=One-Click` form-encoded
   * to the List-Unsubscribe address, without a login; the signed token is the authority. The web
   * page /unsubscribe POSTs here too, after asking. Form bodies are parsed for this route only.
   */
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    scope
      .withTypeProvider<ZodTypeProvider>()
      .post('/notifications/unsubscribe', { schema: { tags: ['notifications'], querystring: unsubscribeQuery } }, async (request, reply) =>
        ok(reply, await service.unsubscribe(request.query.token), notificationMessages.unsubscribed),
      );
  });

  app.post('/notifications/read-all', { schema, onRequest: login }, async (request, reply) =>
    ok(reply, await service.markAllRead(viewerOf(request).id), notificationMessages.allRead),
  );

  /**
   * Server-Sent Events: `event: unread` with `{ unread }` at once and whenever it changes. The stream
   * ends when the access token it was opened with expires; the client reconnects with a fresh
   * token, so a suspended account stops hearing at the latest then.
   */
  app.get('/notifications/stream', { schema, onRequest: login }, async (request, reply) => {
    const viewer = viewerOf(request);
    const { unread } = await service.unread(viewer.id);
    // Registered before the stream opens (a 429 is still an answer); a push before then is dropped.
    const stream: { write?: (text: string) => void } = {};
    const send = (n: number) => stream.write?.(`event: unread\ndata: ${JSON.stringify({ unread: n })}\n\n`);
    const remove = await live.add(viewer.id, send);
    if (!remove) throw tooMany(`At most ${STREAMS_PER_USER} notification streams at once`);
    stream.write = openEventStream(reply, { maxSeconds: ctx.config.accessTokenTtl, open: openStreams, onClose: remove });
    send(unread);
  });
};
