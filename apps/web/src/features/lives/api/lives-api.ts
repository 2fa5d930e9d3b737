import type { Live, LiveBody, LiveWithKey } from '@glimpse/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

/** While a live waits it is asked again this often, so the page starts playing by itself. */
export const WAITING_POLL_MS = 3_000;
/** On air: often enough to notice the end (the player also sees the playlist's end). */
const ON_AIR_POLL_MS = 10_000;
/** After the end, while its replay is saved (the recording copied, then named): asked again for this long. */
const REPLAY_WAIT_MS = 10 * 60_000;

/** How often the live page asks again: while it waits, while on air, and for a while after the end until the replay is named. */
export function livePollMs(l: Live | undefined, now = Date.now()): number | false {
  if (l?.state === 'waiting') return WAITING_POLL_MS;
  if (l?.state === 'live') return ON_AIR_POLL_MS;
  const savingReplay = l?.state === 'ended' && l.saveReplay && !l.replayVideoId && l.endedAt !== null && now - Date.parse(l.endedAt) < REPLAY_WAIT_MS;
  return savingReplay ? ON_AIR_POLL_MS : false;
}

export const liveQueryOptions = (liveId: string) =>
  queryOptions({
    queryKey: ['lives', liveId],
    queryFn: ({ signal }) => api.get<Live>(`lives/${encodeURIComponent(liveId)}`, undefined, signal).then((r) => r.data),
    refetchInterval: (q) => livePollMs(q.state.data),
  });

export const myLivesQueryOptions = queryOptions({
  queryKey: ['lives', 'mine'],
  queryFn: ({ signal }) => api.get<Live[]>('lives', { limit: 50 }, signal).then((r) => r.data),
});

export const useMyLives = () => useQuery(myLivesQueryOptions);

export function useCreateLive() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<LiveBody> & { title: string }) => api.post<LiveWithKey>('lives', body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['lives', 'mine'] }),
  });
}

export function useNewKey() {
  return useMutation({ mutationFn: (liveId: string) => api.post<LiveWithKey>(`lives/${encodeURIComponent(liveId)}/key`) });
}

export function useDeleteLive() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (liveId: string) => api.delete<null>(`lives/${encodeURIComponent(liveId)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['lives', 'mine'] }),
  });
}

/** Sets (a file) or removes (null) a live's thumbnail; the server checks and re-encodes it as a video's. */
export function useLiveThumbnail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ liveId, file }: { liveId: string; file: File | null }) => {
      const url = `lives/${encodeURIComponent(liveId)}/thumbnail`;
      if (!file) return api.delete<Live>(url);
      const form = new FormData();
      form.append('image', file);
      return api.put<Live>(url, form);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['lives'] }),
  });
}
