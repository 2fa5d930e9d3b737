import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope, instanceAbout, instanceMessages, instanceSettings, instanceSettingsPatch } from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { ok } from '../../lib/reply.ts';
import { permissionFirst } from '../../identity/viewer.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];
const answer = { 200: envelope(instanceSettings) };

/** Instance settings: admins read and change them (ARCHITECTURE §8); everyone reads the about page. */
export const instanceRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get('/instance/about', { schema: { tags: ['instance'], response: { 200: envelope(instanceAbout) } } }, async (_request, reply) => {
    const { name, description, about } = await ctx.settings.get();
    return ok(reply, { name, description, about }, instanceMessages.aboutFetched);
  });

  app.get('/admin/settings', { onRequest: permissionFirst('configure'), schema: { tags, security, response: answer } }, async (_request, reply) =>
    ok(reply, await ctx.settings.get(), instanceMessages.settingsFetched),
  );

  app.patch(
    '/admin/settings',
    { onRequest: permissionFirst('configure'), schema: { tags, security, body: instanceSettingsPatch, response: answer } },
    async (request, reply) => ok(reply, await ctx.settings.update(request.body), instanceMessages.settingsUpdated),
  );
};
