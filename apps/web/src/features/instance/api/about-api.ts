import type { InstanceAbout } from '@glimpse/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

export const aboutQueryOptions = queryOptions({
  queryKey: ['instance', 'about'],
  queryFn: async ({ signal }) => (await api.get<InstanceAbout>('instance/about', undefined, signal)).data,
});
