import { api } from '@/lib/api-client.ts';
import type { ApiUser } from '@/lib/session.ts';

export const updateProfile = (body: { _id: string; fullName: string; userName: string }) =>
  api.patch<{ user: ApiUser }>('users/me', body);

export const changePassword = (body: { email: string; curPassword: string; newPassword: string; confirmPassword: string }) =>
  api.patch<unknown>('users/password', body);

/** PATCH users/avatar or users/cover-image with multipart field `image`. */
export function uploadProfileImage(kind: 'avatar' | 'cover-image', image: File) {
  const form = new FormData();
  form.append('image', image);
  return api.patch<unknown>(`users/${kind}`, form);
}
