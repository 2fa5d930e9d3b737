import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { channelStatsResult, envelope, pageQuery } from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { ok } from '../../lib/reply.ts';
import { requireViewer } from '../../identity/viewer.ts';
import { VideosService } from '../videos/videos.service.ts';
import { DashboardRepository } from './dashboard.repository.ts';

const LOGIN = 'Please login to view your channel.';

export const dashboardRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const dashboard = new DashboardRepository(ctx.db);
  const videos = new VideosService(ctx);
  const schema = { tags: ['dashboard'], security: [{ bearer: [] }] };

  app.get('/dashboard/channel-stats', { schema: { ...schema, response: { 200: envelope(channelStatsResult) } } }, async (request, reply) => {
    const viewer = requireViewer(request, LOGIN);
    return ok(reply, { stats: await dashboard.stats(viewer.id) }, 'Channel stats fetched successfully');
  });

  app.get('/dashboard/channel-videos', { schema: { ...schema, querystring: pageQuery } }, async (request, reply) => {
    const viewer = requireViewer(request, LOGIN);
    return ok(reply, await videos.ownerVideos(viewer.id, viewer.id, request.query), 'Channel videos fetched successfully');
  });
};
