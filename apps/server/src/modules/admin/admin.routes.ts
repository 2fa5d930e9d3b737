import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminMessages, adminOverview, adminUsersQuery, envelope, id, roleChangeBody } from '@glimpse/contract';
import { z } from 'zod';
import type { ModuleOptions } from '../../context.ts';
import { ok } from '../../lib/reply.ts';
import { permissionFirst, requireViewer } from '../../identity/viewer.ts';
import { AdminService } from './admin.service.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];

/** The staff area (ARCHITECTURE §8): overview and transcode retries for staff, roles for admins. */
export const adminRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = new AdminService(ctx);
  const staff = permissionFirst('administer');

  app.get('/admin/overview', { onRequest: staff, schema: { tags, security, response: { 200: envelope(adminOverview) } } }, async (_request, reply) =>
    ok(reply, await service.overview(), adminMessages.overviewFetched),
  );

  app.post(
    '/admin/transcodes/:videoId/retry',
    { onRequest: staff, schema: { tags, security, params: z.object({ videoId: id }) } },
    async (request, reply) => {
      await service.retryTranscode(request.params.videoId);
      return ok(reply, {}, adminMessages.transcodeRetried);
    },
  );

  app.get('/admin/users', { onRequest: staff, schema: { tags, security, querystring: adminUsersQuery } }, async (request, reply) =>
    ok(reply, await service.users(request.query), adminMessages.usersFetched),
  );

  app.patch(
    '/admin/users/:userId/role',
    { onRequest: permissionFirst('configure'), schema: { tags, security, params: z.object({ userId: id }), body: roleChangeBody } },
    async (request, reply) => ok(reply, { user: await service.setRole(requireViewer(request), request.params.userId, request.body.role) }, adminMessages.roleChanged),
  );
};
