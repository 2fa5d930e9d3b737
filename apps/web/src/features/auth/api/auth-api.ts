import { api, apiRequest } from '@/lib/api-client.ts';
import { session, toStoredUser, type ApiUser } from '@/lib/session.ts';

// The current user (useAuth, meQueryOptions, useSetMe, restoreSession) is shared code: lib/me.ts.

export interface LoginAnswer {
  accessToken: string;
  refreshToken: string;
  user: ApiUser;
}

export async function login(body: { email: string; password: string }) {
  const res = await api.post<LoginAnswer>('auths/login', body, { skipRefresh: true });
  session.setAccessToken(res.data.accessToken);
  session.setUser(toStoredUser(res.data.user));
  return res;
}

export const register = (body: { fullName: string; email: string; password: string; reason?: string }) =>
  api.post<unknown>('auths/register', body, { skipRefresh: true });

export async function logout() {
  try {
    return await api.post<unknown>('auths/logout', {}, { skipRefresh: true });
  } finally {
    session.clear();
  }
}

export const sendForgotPasswordMail = (email: string) =>
  api.post<unknown>('auths/forgot-password-mail', { email }, { skipRefresh: true });

export const resetPassword = (body: { token: string; newPassword: string; confirmPassword: string }) =>
  api.post<unknown>('auths/password-reset', body, { skipRefresh: true });

export const verifyEmail = (token: string) =>
  apiRequest<unknown>('auths/email-verification', { query: { token }, skipRefresh: true }).then((r) => r.statusCode === 200);
