import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FederationBlock } from '@glimpse/contract';
import { api } from '@/lib/api-client.ts';

/** Federation policy (issue #35), admins only: blocks, and open federation or an allow-list. */
const blocksKey = ['admin', 'federation', 'blocks'] as const;
const policyKey = ['admin', 'federation', 'policy'] as const;

export interface FederationPolicy {
  mode: 'open' | 'allowlist';
  allowedHosts: string[];
}

export const useFederationBlocks = () =>
  useQuery({ queryKey: blocksKey, queryFn: async () => (await api.get<{ blocks: FederationBlock[] }>('admin/federation/blocks')).data.blocks });

export const useFederationPolicy = () => useQuery({ queryKey: policyKey, queryFn: async () => (await api.get<FederationPolicy>('admin/federation/policy')).data });

export function useBlockChange() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (change: { block: string } | { unblock: string }): Promise<void> => {
      if ('block' in change) await api.post<FederationBlock>('admin/federation/blocks', { target: change.block });
      else await api.delete<null>('admin/federation/blocks', { query: { target: change.unblock } });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: blocksKey }),
  });
}

export function usePolicyChange() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (change: { mode: FederationPolicy['mode'] } | { allow: string } | { disallow: string }) =>
      (
        'mode' in change
          ? await api.put<FederationPolicy>('admin/federation/policy', { mode: change.mode })
          : 'allow' in change
            ? await api.post<FederationPolicy>('admin/federation/allowed-hosts', { host: change.allow })
            : await api.delete<FederationPolicy>('admin/federation/allowed-hosts', { query: { host: change.disallow } })
      ).data,
    onSuccess: (policy) => qc.setQueryData(policyKey, policy),
  });
}
