import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';
import type { Channel } from './types.ts';

/** GET users/channel/{userName}: shared by the public channel and the settings pages (one cache entry). */
export const channelQueryOptions = (userName: string) =>
  queryOptions({
    queryKey: ['channel', userName],
    queryFn: ({ signal }) => api.get<Channel>(`users/channel/${encodeURIComponent(userName)}`, undefined, signal).then((r) => r.data),
  });
