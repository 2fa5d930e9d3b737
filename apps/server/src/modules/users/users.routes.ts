import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModuleOptions } from '../../context.ts';
import { ok } from '../../lib/reply.ts';
import { requireViewer } from '../../plugins/viewer.ts';
import { UsersService } from './users.service.ts';

export const usersRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = new UsersService(ctx);

  app.get('/users/me', { schema: { tags: ['users'], security: [{ bearer: [] }] } }, async (request, reply) => {
    const viewer = requireViewer(request);
    return ok(reply, { user: await service.me(viewer.id) }, 'Current user fetched successfully');
  });
};
