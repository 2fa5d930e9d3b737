import type { CaptionList } from '@glimpse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

export const captionsKey = (videoId: string) => ['captions', videoId] as const;

/** A video's caption tracks (its owner's view in the edit dialog). */
export const useCaptions = (videoId: string) =>
  useQuery({
    queryKey: captionsKey(videoId),
    queryFn: ({ signal }) => api.get<CaptionList>(`videos/${videoId}/captions`, undefined, signal).then((r) => r.data.captions),
  });

/** Uploads (or replaces) and deletes captions; the list and the watch page's video follow. */
export function useCaptionChanges(videoId: string) {
  const qc = useQueryClient();
  const refresh = () => Promise.all([qc.invalidateQueries({ queryKey: captionsKey(videoId) }), qc.invalidateQueries({ queryKey: ['videos', 'detail', videoId] })]);
  const save = useMutation({
    mutationFn: ({ lang, label, file }: { lang: string; label: string; file: File }) => {
      const form = new FormData();
      form.append('label', label);
      form.append('file', file);
      return api.post<CaptionList>(`videos/${videoId}/captions/${encodeURIComponent(lang)}`, form);
    },
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (lang: string) => api.delete<unknown>(`videos/${videoId}/captions/${encodeURIComponent(lang)}`),
    onSuccess: refresh,
  });
  return { save, remove };
}
