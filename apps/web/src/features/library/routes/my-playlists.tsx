import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { PlaylistTile } from '@/components/media/playlist-tile.tsx';
import type { PlaylistSummary } from '@/components/media/types.ts';
import { MediaGrid } from '@/components/media/video-tile.tsx';
import { ActionMenu, toggleOpen } from '@/components/ui/action-menu.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { InfiniteSentinel } from '@/components/ui/infinite-sentinel.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useStoredUser } from '@/lib/session.ts';
import { useConfirmedDelete } from '@/lib/use-confirmed-delete.ts';
import { deletePlaylist, myPlaylistsKey, renamePlaylist, useMyPlaylists } from '../api/library-api.ts';
import { useLoginGuard } from '../components/use-login-guard.ts';

const LOGIN = 'Please login to view your playlists.';

function RenameField({ playlist, onDone }: { playlist: PlaylistSummary; onDone: (saved: boolean) => void }) {
  const [name, setName] = useState(playlist.name);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const next = name.trim();
    // Spec §5: an empty name is not sent.
    if (!next) return;
    setBusy(true);
    try {
      const { message } = await renamePlaylist(playlist._id, next);
      toast.success(message || 'Playlist updated successfully');
      onDone(true);
    } catch (err) {
      toast.error(errorMessage(err));
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <input aria-label="Playlist name" value={name} onChange={(e) => setName(e.target.value)} className="h-9 rounded-lg border border-zinc-300 px-2 text-sm" autoFocus />
      <div className="flex gap-2">
        <Button size="sm" variant="secondary" onClick={() => onDone(false)}>
          Cancel
        </Button>
        <Button size="sm" onClick={save} loading={busy} dimmed={!name.trim()}>
          Save
        </Button>
      </div>
    </div>
  );
}

export default function MyPlaylistsRoute() {
  const user = useStoredUser();
  const navigate = useNavigate();
  const missing = !user;
  // Spec §8: no stored user name -> the login toast and home, without asking the server.
  useEffect(() => {
    if (!missing) return;
    toast.error(LOGIN, { id: LOGIN });
    navigate(paths.home.getHref(), { replace: true });
  }, [missing, navigate]);
  if (!user) return null;
  return <MyPlaylists userName={user.userName} />;
}

function MyPlaylists({ userName }: { userName: string }) {
  const q = useMyPlaylists(userName);
  const qc = useQueryClient();
  useLoginGuard(q.error, LOGIN);
  const [openMenu, setOpenMenu] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: myPlaylistsKey(userName) });

  const remover = useConfirmedDelete<PlaylistSummary>(deletePlaylist, 'Playlist deleted successfully', refresh);

  const playlists = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="mx-auto max-w-7xl px-4 py-6">
      <h1 className="mb-6 text-2xl font-bold">Playlists</h1>
      {q.isPending ? (
        <Spinner label="Loading playlists" />
      ) : playlists.length === 0 ? (
        <EmptyState kind="playlist" title="No playlists found" text="You haven't created any playlist." />
      ) : (
        <MediaGrid label="Your playlists">
          {playlists.map((p) => (
            <li key={p._id} className="w-full">
              <PlaylistTile
                playlist={p}
                title={
                  editing === p._id ? (
                    <RenameField
                      playlist={p}
                      onDone={(saved) => {
                        setEditing(null);
                        if (saved) void refresh();
                      }}
                    />
                  ) : undefined
                }
                actions={
                  <ActionMenu
                    label={`Options for ${p.name}`}
                    open={openMenu === p._id}
                    onToggle={() => setOpenMenu((cur) => toggleOpen(cur, p._id))}
                    onClose={() => setOpenMenu(null)}
                    onEdit={() => setEditing(p._id)}
                    onDelete={() => remover.ask(p)}
                  />
                }
              />
            </li>
          ))}
        </MediaGrid>
      )}
      <InfiniteSentinel hasMore={q.hasNextPage} loading={q.isFetchingNextPage} onVisible={() => q.fetchNextPage()} />
      <ConfirmDialog
        open={remover.pending !== null}
        title="Delete playlist"
        text={remover.pending ? `Delete the playlist '${remover.pending.name}'? The videos stay on their channels.` : ''}
        onConfirm={remover.confirm}
        onClose={remover.cancel}
        busy={remover.busy}
      />
    </div>
  );
}
