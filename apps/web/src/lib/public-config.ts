import type { PublicInstance } from '@glimpse/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';

/** GET config: what every visitor's app reads of this server (type-only contract import: the shell stays free of zod). */
export interface PublicConfig {
  instance?: PublicInstance;
  limits: { videoMb: number; thumbnailMb: number; imageMb: number; chunkBytes: number };
  uploads: { available: boolean; reason?: string };
}

export const configQueryOptions = queryOptions({
  queryKey: ['config'],
  queryFn: ({ signal }) => api.get<PublicConfig>('config', undefined, signal).then((r) => r.data),
  staleTime: Infinity,
});

/** Used until GET config answers (and by the top bar when the instance has no name of its own). */
export const DEFAULT_INSTANCE: PublicInstance = { name: 'Glimpse', description: '', registrationMode: 'open', maxVideoMinutes: 60 };

/** The instance as GET config tells it; `isPending` until it answered. */
export function useInstance(): { instance: PublicInstance; isPending: boolean } {
  const config = useQuery(configQueryOptions);
  return { instance: config.data?.instance ?? DEFAULT_INSTANCE, isPending: config.isPending };
}
