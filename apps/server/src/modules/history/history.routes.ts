import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pageQuery, videoMessages } from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { ok } from '../../lib/reply.ts';
import { requireViewer } from '../../identity/viewer.ts';
import { mediaUrls } from '../media-links/media-links.ts';
import { toVideo } from '../videos/videos.presenter.ts';
import { mappedPage, pageWindow } from '../videos/videos.service.ts';
import { HistoryRepository } from './history.repository.ts';
import { toIso } from '../../lib/time.ts';

export const historyRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const history = new HistoryRepository(ctx.db);
  const media = mediaUrls(ctx);

  app.get(
    '/users/watch-history',
    { schema: { tags: ['history'], querystring: pageQuery, security: [{ bearer: [] }] } },
    async (request, reply) => {
      const viewer = requireViewer(request, videoMessages.loginForHistory);
      const rows = await history.list(viewer.id, pageWindow(request.query));
      const page = mappedPage('watchHistory', rows, request.query, (r) => [r.watched_key!, r.id], (r) => ({
        ...toVideo(media, r),
        watchedAt: toIso(r.watched_at!),
        position: Number(r.position_seconds ?? 0),
      }));
      return ok(reply, page, 'Watch history fetched successfully');
    },
  );
};
