import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  envelope,
  forgotPasswordBody,
  loginBody,
  loginResult,
  logoutBody,
  messageOnly,
  messages,
  passwordResetBody,
  refreshBody,
  refreshResult,
  registerBody,
  registrationMessages,
  tokenQuery,
  userResult,
} from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { unauthorized } from '../../lib/errors.ts';
import { rateLimited } from '../../lib/rate-limit.ts';
import { ok } from '../../lib/reply.ts';
import { AuthService } from './auth.service.ts';
import { clearRefreshCookie, refreshTokenOf, setRefreshCookie } from '../../identity/refresh-cookie.ts';

export const authRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = new AuthService(ctx);
  const ttl = ctx.config.refreshTokenTtl;
  const tags = ['auths'];

  app.post(
    '/auths/register',
    { schema: { tags, body: registerBody, response: { 201: envelope(userResult) } }, config: rateLimited(ctx.config, 'register') },
    async (request, reply) => {
      const { user, pendingApproval } = await service.register(request.body);
      return ok(reply, { user }, pendingApproval ? registrationMessages.pendingApproval : messages.registered, 201);
    },
  );

  app.post(
    '/auths/login',
    { schema: { tags, body: loginBody, response: { 200: envelope(loginResult) } }, config: rateLimited(ctx.config, 'login') },
    async (request, reply) => {
      const result = await service.login(request.body, request.headers['user-agent']);
      setRefreshCookie(request, reply, result.refreshToken, ttl);
      return ok(reply, result, messages.loggedIn);
    },
  );

  app.post('/auths/logout', { schema: { tags, body: logoutBody, response: { 200: messageOnly } } }, async (request, reply) => {
    const token = refreshTokenOf(request, request.body, ctx.config.publicUrl);
    if (token) await service.sessions.end(token);
    // The session the access token names ends too, at once, whether or not a refresh token came.
    if (request.viewer?.sessionId) await service.sessions.endSession(request.viewer.id, request.viewer.sessionId);
    clearRefreshCookie(request, reply);
    return ok(reply, null, messages.loggedOut);
  });

  app.post(
    '/auths/forgot-password-mail',
    {
      schema: { tags, body: forgotPasswordBody, response: { 200: messageOnly } },
      config: rateLimited(ctx.config, 'forgotPassword'),
    },
    async (request, reply) => {
      await service.forgotPassword(request.body.email);
      return ok(reply, null, messages.resetMailSent);
    },
  );

  app.get('/auths/email-verification', { schema: { tags, querystring: tokenQuery, response: { 200: messageOnly } } }, async (request, reply) => {
    await service.verifyEmail(request.query.token);
    return ok(reply, null, messages.emailVerified);
  });

  app.post(
    '/auths/refresh-token',
    { schema: { tags, body: refreshBody, response: { 200: envelope(refreshResult) } } },
    async (request, reply) => {
      const token = refreshTokenOf(request, request.body, ctx.config.publicUrl);
      if (!token) throw unauthorized(messages.refreshTokenMissing);
      try {
        const result = await service.sessions.refresh(token, request.headers['user-agent']);
        setRefreshCookie(request, reply, result.refreshToken, ttl);
        return ok(reply, result, messages.tokenRefreshed);
      } catch (err) {
        // A dead cookie would only make the web app retry it.
        clearRefreshCookie(request, reply);
        throw err;
      }
    },
  );

  app.post('/auths/password-reset', { schema: { tags, body: passwordResetBody, response: { 200: messageOnly } } }, async (request, reply) => {
    await service.resetPassword(request.body.token, request.body.newPassword);
    return ok(reply, null, messages.passwordReset);
  });
};
