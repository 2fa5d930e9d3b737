import type { InstanceAbout } from '@glimpse/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from './api-client.ts';

/** GET instance/about: the about page's text; the admin settings read it again after a change. */
export const aboutQueryOptions = queryOptions({
  queryKey: ['instance', 'about'],
  queryFn: async ({ signal }) => (await api.get<InstanceAbout>('instance/about', undefined, signal)).data,
});
