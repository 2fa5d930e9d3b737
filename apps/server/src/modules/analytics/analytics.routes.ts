import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { analyticsMessages, analyticsQuery, heartbeatBody, videoIdParam, type AnalyticsDay } from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { rateLimited } from '../../lib/rate-limit.ts';
import { ok } from '../../lib/reply.ts';
import { loginFirst, requireViewer } from '../../identity/viewer.ts';
import { AnalyticsService } from './analytics.service.ts';
import { HeartbeatWriter } from './heartbeat-writer.ts';

/** A spreadsheet of the range's days, as a download. */
function sendCsv(reply: FastifyReply, name: string, days: AnalyticsDay[]) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${name}.csv"`)
    .header('Cache-Control', 'no-store')
    .send(AnalyticsService.csv(days));
}

export const analyticsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const writer = new HeartbeatWriter(ctx.db, app.log, { batchRows: ctx.config.analytics.batchRows, cacheMs: ctx.config.analytics.videoCacheMs });
  // A graceful stop writes the buffered heartbeats before the database closes.
  app.addHook('onClose', () => writer.close());
  const service = new AnalyticsService(ctx, writer);
  const tags = ['analytics'];
  const security = [{ bearer: [] }];
  const loginOnly = loginFirst(analyticsMessages.loginRequired);

  // Open to visitors (an expired token counts as none): the player of anyone who may open the video reports.
  app.post(
    '/analytics/heartbeat',
    { schema: { tags, body: heartbeatBody }, config: rateLimited(ctx.config, 'heartbeat') },
    async (request, reply) => {
      const viewer = request.viewer;
      const watcher = viewer ? { userId: viewer.id } : { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' };
      const result = await service.heartbeat(request.body, viewer?.id ?? null, watcher);
      return ok(reply, result, analyticsMessages.recorded, 202);
    },
  );

  app.get('/analytics/channel', { schema: { tags, security, querystring: analyticsQuery }, onRequest: loginOnly }, async (request, reply) => {
    const viewer = requireViewer(request, analyticsMessages.loginRequired);
    return ok(reply, await service.channel(viewer.id, request.query), analyticsMessages.fetched);
  });

  app.get('/analytics/channel.csv', { schema: { tags, security, querystring: analyticsQuery }, onRequest: loginOnly }, async (request, reply) => {
    const viewer = requireViewer(request, analyticsMessages.loginRequired);
    const data = await service.channel(viewer.id, request.query);
    return sendCsv(reply, `glimpse-analytics-${viewer.userName}-${data.range}`, data.days);
  });

  app.get(
    '/analytics/videos/:id',
    { schema: { tags, security, params: videoIdParam, querystring: analyticsQuery }, onRequest: loginOnly },
    async (request, reply) => {
      const viewer = requireViewer(request, analyticsMessages.loginRequired);
      return ok(reply, await service.video(viewer.id, request.params.id, request.query), analyticsMessages.fetched);
    },
  );

  app.get(
    '/analytics/videos/:id.csv',
    { schema: { tags, security, params: videoIdParam, querystring: analyticsQuery }, onRequest: loginOnly },
    async (request, reply) => {
      const viewer = requireViewer(request, analyticsMessages.loginRequired);
      const data = await service.video(viewer.id, request.params.id, request.query);
      return sendCsv(reply, `glimpse-analytics-${data.videoId}-${data.range}`, data.days);
    },
  );
};
