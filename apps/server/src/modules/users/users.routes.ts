import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import path from 'node:path';
import {
  changePasswordBody,
  channel,
  envelope,
  imageUploadBody,
  messageOnly,
  messages,
  updateMeBody,
  userNameParam,
  userResult,
} from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { badRequest } from '../../lib/errors.ts';
import { readMultipart } from '../../lib/multipart.ts';
import { rateLimited } from '../../lib/rate-limit.ts';
import { ok } from '../../lib/reply.ts';
import { requireViewer } from '../../identity/viewer.ts';
import { refreshTokenOf } from '../../identity/refresh-cookie.ts';
import { UsersService, type ProfileImage } from './users.service.ts';

export const usersRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = new UsersService(ctx);
  const tags = ['users'];
  const security = [{ bearer: [] }];
  const userAnswer = { 200: envelope(userResult) };
  const tmpDir = path.join(ctx.config.dataDir, 'tmp');

  app.get('/users/me', { schema: { tags, security, response: userAnswer } }, async (request, reply) => {
    const viewer = requireViewer(request);
    return ok(reply, { user: await service.me(viewer.id) }, 'Current user fetched successfully');
  });

  app.patch('/users/me', { schema: { tags, security, body: updateMeBody, response: userAnswer } }, async (request, reply) => {
    const viewer = requireViewer(request, 'Please login to edit your profile');
    return ok(reply, { user: await service.updateMe(viewer.id, request.body) }, messages.changesUpdated);
  });

  app.patch(
    '/users/password',
    { schema: { tags, security, body: changePasswordBody, response: { 200: messageOnly } } },
    async (request, reply) => {
      const viewer = requireViewer(request, 'Please login to change your password');
      const { curPassword, newPassword } = request.body;
      await service.changePassword(viewer.id, curPassword, newPassword, refreshTokenOf(request, request.body, ctx.config.publicUrl), viewer.sessionId);
      return ok(reply, null, messages.passwordUpdated);
    },
  );

  /** Multipart field `image` (png or jpeg, at most MAX_IMAGE_MB). */
  const uploadImage = async (request: FastifyRequest, kind: ProfileImage) => {
    const viewer = requireViewer(request, 'Please login to change your channel images');
    const body = await readMultipart(request, tmpDir, { image: { limitMb: ctx.config.limits.imageMb } });
    try {
      const file = body.files.image;
      if (!file) throw badRequest(messages.imageRequired);
      return await service.setImage(viewer.id, kind, file.path);
    } finally {
      await body.cleanup();
    }
  };
  const imageRoute = (description: string) => ({
    schema: { tags, security, description, consumes: ['multipart/form-data'], body: imageUploadBody, response: userAnswer },
    config: rateLimited(ctx.config, 'upload'),
  });

  app.patch('/users/avatar', imageRoute('Multipart field `image`: png or jpeg, stored as a 256x256 crop.'), async (request, reply) =>
    ok(reply, { user: await uploadImage(request, 'avatar') }, messages.avatarUpdated),
  );

  app.patch('/users/cover-image', imageRoute('Multipart field `image`: png or jpeg, stored as a 1500x300 (5:1) crop.'), async (request, reply) =>
    ok(reply, { user: await uploadImage(request, 'cover') }, messages.coverUpdated),
  );

  app.get('/users/channel/:userName', { schema: { tags, params: userNameParam, response: { 200: envelope(channel) } } }, async (request, reply) =>
    ok(reply, await service.channel(request.params.userName, request.viewer?.id ?? null), 'Channel fetched successfully'),
  );
};
