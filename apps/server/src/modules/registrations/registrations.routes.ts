import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope, messageOnly, pageQuery, registrationMessages, registrationParams, registrationsPage, rejectRegistrationBody } from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { ok } from '../../lib/reply.ts';
import { permissionFirst, requirePermission } from '../../identity/viewer.ts';
import { RegistrationsService } from './registrations.service.ts';

const tags = ['moderation'];
const security = [{ bearer: [] }];

/** Registration in approval mode: moderators list the waiting accounts and approve or reject each. */
export const registrationsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = new RegistrationsService(ctx);
  const onRequest = permissionFirst('moderate');

  app.get(
    '/moderation/registrations',
    { onRequest, schema: { tags, security, querystring: pageQuery, response: { 200: envelope(registrationsPage) } } },
    async (request, reply) => ok(reply, await service.list(request.query), registrationMessages.listed),
  );

  app.post(
    '/moderation/registrations/:userId/approve',
    { onRequest, schema: { tags, security, params: registrationParams, response: { 200: messageOnly } } },
    async (request, reply) => {
      await service.approve(requirePermission(request, 'moderate').id, request.params.userId);
      return ok(reply, null, registrationMessages.approved);
    },
  );

  app.post(
    '/moderation/registrations/:userId/reject',
    { onRequest, schema: { tags, security, params: registrationParams, body: rejectRegistrationBody, response: { 200: messageOnly } } },
    async (request, reply) => {
      await service.reject(requirePermission(request, 'moderate').id, request.params.userId, request.body.reason);
      return ok(reply, null, registrationMessages.rejected);
    },
  );
};
