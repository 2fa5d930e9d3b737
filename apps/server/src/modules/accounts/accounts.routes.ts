import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountMessages, deleteAccountBody, envelope, messageOnly, storageUsage, userIdParam } from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { ok } from '../../lib/reply.ts';
import { permissionFirst, requireViewer } from '../../identity/viewer.ts';
import { clearRefreshCookie } from '../../identity/refresh-cookie.ts';
import { AccountDeletionService } from './account-deletion.service.ts';
import { ExportService } from './export.service.ts';
import { QuotaService } from '../quota/quota.service.ts';

const security = [{ bearer: [] }];

/** Storage used against the quotas, the data export, and account deletion (own, and by admins). */
export const accountsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const quota = new QuotaService(ctx);
  const deletion = new AccountDeletionService(ctx);
  const exporter = new ExportService(ctx);
  const tags = ['users'];

  app.get('/users/me/storage', { schema: { tags, security, response: { 200: envelope(storageUsage) } } }, async (request, reply) => {
    const viewer = requireViewer(request, 'Please login to see your storage');
    return ok(reply, await quota.usage(viewer.id), accountMessages.storageFetched);
  });

  app.get(
    '/users/me/export',
    { schema: { tags, security, description: 'A JSON download of everything the account holds (profile, videos metadata, tweets, comments, playlists, history, likes, subscriptions).' } },
    async (request, reply) => {
      const viewer = requireViewer(request, 'Please login to download your data');
      const { userName, chunks } = await exporter.open(viewer.id);
      return reply
        .type('application/json; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="glimpse-${userName}.json"`)
        .header('Cache-Control', 'no-store')
        .send(Readable.from(chunks));
    },
  );

  app.delete('/users/me', { schema: { tags, security, body: deleteAccountBody, response: { 200: messageOnly } } }, async (request, reply) => {
    const viewer = requireViewer(request, 'Please login to delete your account');
    await deletion.deleteOwn(viewer.id, request.body.password);
    clearRefreshCookie(request, reply);
    return ok(reply, null, accountMessages.deleted);
  });

  app.delete(
    '/admin/users/:userId',
    { onRequest: permissionFirst('deleteAccounts'), schema: { tags: ['admin'], security, params: userIdParam, response: { 200: messageOnly } } },
    async (request, reply) => {
      const admin = requireViewer(request);
      await deletion.deleteByAdmin(admin.id, request.params.userId);
      return ok(reply, null, accountMessages.adminDeleted);
    },
  );
};
