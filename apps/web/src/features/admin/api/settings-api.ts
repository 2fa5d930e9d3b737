import type { InstanceSettings, InstanceSettingsPatch } from '@glimpse/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';
import { aboutQueryOptions } from '@/lib/instance-about.ts';
import { configQueryOptions } from '@/lib/public-config.ts';

export const settingsQueryOptions = queryOptions({
  queryKey: ['admin', 'settings'],
  queryFn: async ({ signal }) => (await api.get<InstanceSettings>('admin/settings', undefined, signal)).data,
});

/** PATCH admin/settings; the public config and about page are read again so the app shows the change. */
export function useSaveSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: InstanceSettingsPatch) => api.patch<InstanceSettings>('admin/settings', patch),
    onSuccess: (res) => {
      client.setQueryData(settingsQueryOptions.queryKey, res.data);
      void client.invalidateQueries({ queryKey: configQueryOptions.queryKey });
      void client.invalidateQueries({ queryKey: aboutQueryOptions.queryKey });
    },
  });
}
