import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  appealBody,
  createReportBody,
  envelope,
  logPage,
  messageOnly,
  moderationMessages as m,
  optionalReasonBody,
  pageQuery,
  queuePage,
  queueQuery,
  reasonBody,
  report,
  reportPage,
  suspendBody,
  takedownNotice,
  takedownParams,
  targetParams,
  userParams,
} from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { rateLimited } from '../../lib/rate-limit.ts';
import { ok } from '../../lib/reply.ts';
import { loginFirst, permissionFirst, requirePermission, requireViewer } from '../../identity/viewer.ts';
import type { Viewer } from '../../identity/access-token.ts';
import { ModerationService } from './moderation.service.ts';

const security = [{ bearer: [] }];

/** Reports and appeals (logged-in users) and the moderation queue, actions and log (staff): ADR 012. */
export const moderationRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = new ModerationService(ctx);
  const user = { tags: ['reports'], security };
  const staff = { tags: ['moderation'], security };
  const moderate = permissionFirst('moderate');

  app.post(
    '/reports',
    {
      onRequest: loginFirst(m.reportLogin),
      schema: { ...user, body: createReportBody, response: { 201: envelope(report) } },
      // Reports feed a human queue: a flood from one client is cut off like the other writes that cost someone time.
      config: rateLimited(ctx.config, 'report'),
    },
    async (request, reply) => ok(reply, await service.report(requireViewer(request).id, request.body), m.reported, 201),
  );

  app.get(
    '/reports/mine',
    { onRequest: loginFirst(m.reportLogin), schema: { ...user, querystring: pageQuery, response: { 200: envelope(reportPage) } } },
    async (request, reply) => ok(reply, await service.mine(requireViewer(request).id, request.query), 'Reports fetched successfully'),
  );

  app.post(
    '/takedowns/:kind/:id/appeal',
    {
      onRequest: loginFirst(m.appealLogin),
      schema: { ...user, params: takedownParams, body: appealBody, response: { 200: envelope(takedownNotice) } },
    },
    async (request, reply) => {
      const { kind, id } = request.params;
      return ok(reply, await service.appeal(requireViewer(request).id, kind, id, request.body.text), m.appealed);
    },
  );

  app.get(
    '/moderation/reports',
    { onRequest: moderate, schema: { ...staff, querystring: queueQuery, response: { 200: envelope(queuePage) } } },
    async (request, reply) => ok(reply, await service.queue(request.query), 'Reports fetched successfully'),
  );

  app.get(
    '/moderation/log',
    { onRequest: moderate, schema: { ...staff, querystring: pageQuery, response: { 200: envelope(logPage) } } },
    async (request, reply) => ok(reply, await service.log(request.query), 'Moderation log fetched successfully'),
  );

  /** A staff action: moderators and admins, a JSON body, an empty answer once done. */
  function staffAction<P extends z.ZodType, B extends z.ZodType>(url: string, params: P, body: B, run: (actor: Viewer, p: z.output<P>, b: z.output<B>) => Promise<void>) {
    app.post(url, { onRequest: moderate, schema: { ...staff, params, body, response: { 200: messageOnly } } }, async (request, reply) => {
      await run(requirePermission(request, 'moderate'), request.params as z.output<P>, request.body as z.output<B>);
      return ok(reply, null, m.done);
    });
  }

  staffAction('/moderation/targets/:kind/:id/dismiss', targetParams, optionalReasonBody, (actor, { kind, id }, b) => service.dismiss(actor, kind, id, b.reason ?? ''));
  staffAction('/moderation/targets/:kind/:id/take-down', takedownParams, reasonBody, (actor, { kind, id }, b) => service.takeDown(actor, kind, id, b.reason));
  staffAction('/moderation/targets/:kind/:id/restore', takedownParams, optionalReasonBody, (actor, { kind, id }, b) => service.restore(actor, kind, id, b.reason ?? ''));
  staffAction('/moderation/targets/:kind/:id/delete', takedownParams, optionalReasonBody, (actor, { kind, id }, b) => service.delete(actor, kind, id, b.reason ?? ''));
  staffAction('/moderation/users/:userId/suspend', userParams, suspendBody, (actor, { userId }, b) => service.suspend(actor, userId, b));
  staffAction('/moderation/users/:userId/unsuspend', userParams, optionalReasonBody, (actor, { userId }, b) => service.unsuspend(actor, userId, b.reason ?? ''));
};
