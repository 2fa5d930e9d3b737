import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  feedPaths,
  type ChannelBlock,
  type FeedTokenCreated,
  type FeedTokenStatus,
  type MailableType,
  type NotificationSettings,
  type NotificationSettingsPatch,
  type UnsubscribeScope,
} from '@glimpse/contract';
import { api, saveApiDownload } from '@/lib/api-client.ts';
import { cursorPaging, fetchPage } from '@/lib/pagination.ts';
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

const blocksKey = ['settings', 'channel-blocks'] as const;

/** The users the caller blocked from commenting on their videos and tweets. */
export const useChannelBlocks = () =>
  useInfiniteQuery({
    queryKey: blocksKey,
    ...cursorPaging,
    queryFn: ({ pageParam, signal }) => fetchPage<ChannelBlock>('channel-blocks', 'blocks', {}, pageParam, signal),
  });

export function useUnblock() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api.delete<unknown>(`channel-blocks/${userId}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: blocksKey }),
  });
}

/** Saves the account's export (GET users/me/export, a JSON attachment) through a temporary link. */
export const downloadMyData = (): Promise<void> => saveApiDownload('users/me/export', 'glimpse-export.json');

/** DELETE users/me with the password: the account and everything in it go for good. */
export const deleteAccount = (password: string) => api.delete<null>('users/me', { body: { password } });

const feedTokenKey = ['settings', 'feed-token'] as const;

/** Whether the caller has a private subscriptions feed (never its token). */
export const useFeedToken = () =>
  useQuery({ queryKey: feedTokenKey, queryFn: ({ signal }) => api.get<FeedTokenStatus>(feedPaths.token, undefined, signal).then((r) => r.data) });

/** Creates the private feed, or replaces its token (the old URLs stop working); the answer is the only sight of the new URLs. */
export function useCreateFeedToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<FeedTokenCreated>(feedPaths.token).then((r) => r.data),
    onSuccess: (created) => qc.setQueryData<FeedTokenStatus>(feedTokenKey, { exists: true, createdAt: created.createdAt }),
  });
}

export function useRevokeFeedToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<null>(feedPaths.token),
    onSuccess: () => qc.setQueryData<FeedTokenStatus>(feedTokenKey, { exists: false, createdAt: null }),
  });
}
const mailSettingsKey = ['settings', 'notification-mail'] as const;

/** Every mailable type's mail mode (GET notifications/settings). */
export const useNotificationSettings = () =>
  useQuery({
    queryKey: mailSettingsKey,
    queryFn: async ({ signal }) => (await api.get<{ settings: NotificationSettings }>('notifications/settings', undefined, signal)).data.settings,
  });

/** Saves some types' modes; the answer (every type) replaces the cached settings. */
export function useSaveNotificationSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (changes: NotificationSettingsPatch) => (await api.patch<{ settings: NotificationSettings }>('notifications/settings', changes)).data.settings,
    onSuccess: (settings) => qc.setQueryData(mailSettingsKey, settings),
  });
}

/** The mail's unsubscribe link, confirmed on the page: turns that kind of mail off (no login needed). */
export const unsubscribe = async (token: string) =>
  (await api.post<{ scope: UnsubscribeScope; types: MailableType[] }>('notifications/unsubscribe', undefined, { query: { token } })).data;
