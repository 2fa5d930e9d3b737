import type { CreateReportBody, Report, ReportTargetKind, TakedownKind, TakedownNotice } from '@glimpse/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

/** The reporter's own list (My reports), read again after each report. */
export const myReportsKey = ['reports', 'mine'] as const;

/** `remote`: a video or comment of another server, whose report is forwarded to it (issue #35). */
export function useReport(remote = false) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateReportBody) => api.post<Report | { object: string }>(remote ? 'federation/reports' : 'reports', body),
    onSuccess: () => client.invalidateQueries({ queryKey: myReportsKey }),
  });
}

/** The owner's one appeal; the caller refreshes the item it was shown on. */
export const useAppeal = () =>
  useMutation({
    mutationFn: ({ kind, id, text }: { kind: TakedownKind; id: string; text: string }) =>
      api.post<TakedownNotice>(`takedowns/${kind}/${id}/appeal`, { text }),
  });

export type QueueAction =
  | { type: 'dismiss' | 'restore' | 'delete' | 'take-down'; kind: ReportTargetKind; id: string; reason: string }
  | { type: 'suspend'; userId: string; reason: string; until: string | null }
  | { type: 'unsuspend'; userId: string; reason: string };

function runAction(a: QueueAction) {
  if (a.type === 'suspend') return api.post<null>(`moderation/users/${a.userId}/suspend`, { reason: a.reason, until: a.until });
  if (a.type === 'unsuspend') return api.post<null>(`moderation/users/${a.userId}/unsuspend`, { reason: a.reason || undefined });
  return api.post<null>(`moderation/targets/${a.kind}/${a.id}/${a.type}`, { reason: a.reason || undefined });
}

/** Every staff action (queue, users list); the queue, the log and the users list are read again afterwards. */
export function useQueueAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: runAction,
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: ['moderation'] }), client.invalidateQueries({ queryKey: ['admin'] })]),
  });
}
