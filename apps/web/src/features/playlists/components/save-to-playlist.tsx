import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ListPlus, Plus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button.tsx';
import { Dialog } from '@/components/ui/dialog.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { addToPlaylist, createPlaylist, myPlaylistsForVideoQueryOptions, removeFromPlaylist } from '../api/playlists-api.ts';
import { t } from '@/lib/i18n/i18n.ts';

function SaveDialogBody({ videoId }: { videoId: string }) {
  const qc = useQueryClient();
  const options = myPlaylistsForVideoQueryOptions(videoId);
  const list = useQuery(options);
  const [pending, setPending] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [creating, setCreating] = useState(false);

  const mark = (id: string, checked: boolean) =>
    qc.setQueryData(options.queryKey, (old) => old?.map((p) => (p._id === id ? { ...p, videoStatus: checked, noOfVideos: p.noOfVideos + (checked ? 1 : -1) } : p)));

  // The checkbox adds or removes the video at once (spec §4). It shows the new state right
  // away (a controlled box would otherwise stay put for the whole round trip) and goes back on failure.
  const toggle = async (id: string, playlistName: string, checked: boolean) => {
    setPending(id);
    mark(id, checked);
    try {
      if (checked) {
        await addToPlaylist(id, videoId);
        toast.success(t('playlist.savedTo', { name: playlistName }));
      } else {
        await removeFromPlaylist(id, videoId);
        toast.success(t('playlist.removedFrom', { name: playlistName }));
      }
    } catch (err) {
      mark(id, !checked);
      toast.error(errorMessage(err));
    }
    setPending(null);
  };

  const create = async (e: FormEvent) => {
    e.preventDefault();
    setCreating(true);
    try {
      const playlist = await createPlaylist(name.trim(), videoId);
      toast.success(t('playlist.savedTo', { name: playlist.name }));
      setName('');
      await qc.invalidateQueries({ queryKey: ['playlists'] });
    } catch (err) {
      toast.error(errorMessage(err));
    }
    setCreating(false);
  };

  return (
    <div className="flex flex-col gap-4">
      {list.isPending ? (
        <Spinner label={t('playlist.loading')} />
      ) : list.isError ? (
        <p className="text-sm text-danger">{errorMessage(list.error)}</p>
      ) : list.data.length === 0 ? (
        <p className="text-sm text-fg-muted">{t('playlist.noneCreated')}</p>
      ) : (
        <ul className="flex max-h-64 flex-col gap-1 overflow-y-auto">
          {list.data.map((p) => (
            <li key={p._id}>
              <label className="flex cursor-pointer items-center gap-3 rounded-lg px-2 py-2 hover:bg-surface-subtle">
                <input
                  type="checkbox"
                  className="size-4 accent-accent"
                  checked={p.videoStatus ?? false}
                  disabled={pending === p._id}
                  onChange={(e) => void toggle(p._id, p.name, e.target.checked)}
                />
                <span className="truncate text-sm">{p.name}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={(e) => void create(e)} className="flex flex-col gap-2 border-t border-line pt-4">
        <label htmlFor="new-playlist" className="text-sm font-medium">
          {t('playlist.newName')}
        </label>
        <div className="flex gap-2">
          <input id="new-playlist" value={name} onChange={(e) => setName(e.target.value)} className="h-10 min-w-0 flex-1 rounded-lg border border-line-strong px-3 text-sm" placeholder={t('playlist.enterName')} />
          <Button type="submit" loading={creating}>
            <Plus className="size-4" aria-hidden />
            {t('playlist.create')}
          </Button>
        </div>
      </form>
    </div>
  );
}

/** The Save button under the video and its dialog. */
export function SaveToPlaylist({ videoId }: { videoId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        <ListPlus className="size-5" aria-hidden />
        {t('common.save')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title={t('playlist.saveTo')}>
        {open && <SaveDialogBody videoId={videoId} />}
      </Dialog>
    </>
  );
}
