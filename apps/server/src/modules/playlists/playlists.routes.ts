import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createPlaylistBody,
  playlistMessages,
  playlistParams,
  playlistsQuery,
  playlistVideoParams,
  updatePlaylistBody,
} from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { ok } from '../../lib/reply.ts';
import { loginFirst, requireViewer } from '../../identity/viewer.ts';
import { PlaylistsService } from './playlists.service.ts';

export const playlistsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = new PlaylistsService(ctx);
  const schema = { tags: ['playlists'], security: [{ bearer: [] }] };
  const manage = { onRequest: loginFirst(playlistMessages.loginRequired) };
  const owner = (request: Parameters<typeof requireViewer>[0]) => requireViewer(request, playlistMessages.loginRequired).id;

  app.get('/playlists', { schema: { ...schema, querystring: playlistsQuery } }, async (request, reply) => {
    const data = await service.list(request.viewer?.id ?? null, request.query);
    return ok(reply, data, 'Playlists fetched successfully');
  });

  app.get('/playlists/:playlistId', { schema: { ...schema, params: playlistParams } }, async (request, reply) => {
    const playlist = await service.get(request.params.playlistId, request.viewer?.id ?? null);
    return ok(reply, { playlist }, 'Playlist fetched successfully');
  });

  app.post(
    '/playlists',
    { schema: { ...schema, body: createPlaylistBody }, onRequest: loginFirst(playlistMessages.createLoginRequired) },
    async (request, reply) => {
      const viewer = requireViewer(request, playlistMessages.createLoginRequired);
      const playlist = await service.create(viewer.id, request.body);
      return ok(reply, { playlist }, playlistMessages.created, 201);
    },
  );

  app.patch(
    '/playlists/:playlistId',
    { schema: { ...schema, params: playlistParams, body: updatePlaylistBody }, ...manage },
    async (request, reply) => {
      const playlist = await service.update(owner(request), request.params.playlistId, request.body);
      return ok(reply, { playlist }, playlistMessages.updated);
    },
  );

  app.delete('/playlists/:playlistId', { schema: { ...schema, params: playlistParams }, ...manage }, async (request, reply) => {
    return ok(reply, await service.remove(owner(request), request.params.playlistId), playlistMessages.deleted);
  });

  app.post('/playlists/:playlistId/:videoId', { schema: { ...schema, params: playlistVideoParams }, ...manage }, async (request, reply) => {
    const playlist = await service.addVideo(owner(request), request.params.playlistId, request.params.videoId);
    return ok(reply, { playlist }, playlistMessages.videoAdded);
  });

  app.delete('/playlists/:playlistId/:videoId', { schema: { ...schema, params: playlistVideoParams }, ...manage }, async (request, reply) => {
    const playlist = await service.removeVideo(owner(request), request.params.playlistId, request.params.videoId);
    return ok(reply, { playlist }, playlistMessages.videoRemoved);
  });
};
