import { ListVideo } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useQueryClient } from '@tanstack/react-query';
import { PlaylistTile } from '@/components/media/playlist-tile.tsx';
import type { PlaylistSummary } from '@/components/media/types.ts';
import { MediaGrid } from '@/components/media/media-grid.tsx';
import { ActionMenu, toggleOpen } from '@/components/ui/action-menu.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { SessionEnded, SignInPage } from '@/components/ui/sign-in-prompt.tsx';
import { session, useStoredUser } from '@/lib/session.ts';
import { InfiniteSentinel } from '@/components/ui/infinite-sentinel.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { useConfirmedDelete } from '@/lib/use-confirmed-delete.ts';
import { deletePlaylist, myPlaylistsKey, renamePlaylist, useMyPlaylists } from '../api/library-api.ts';
import { useLoginGuard } from '@/lib/use-login-guard.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

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
      toast.success(message || t('library.playlistUpdated'));
      onDone(true);
    } catch (err) {
      toast.error(errorMessage(err));
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <input aria-label={t('library.playlistName')} value={name} onChange={(e) => setName(e.target.value)} className="h-9 rounded-lg border border-line-strong px-2 text-sm" autoFocus />
      <div className="flex gap-2">
        <Button size="sm" variant="secondary" onClick={() => onDone(false)}>
          {t('common.cancel')}
        </Button>
        <Button size="sm" onClick={save} loading={busy} disabled={!name.trim()}>
          {t('common.save')}
        </Button>
      </div>
    </div>
  );
}

export default function MyPlaylistsRoute() {
  useDocumentTitle(t('nav.playlists'));
  const user = useStoredUser();
  // Issue #17 (ADR 020): no stored user -> a sign-in prompt, not the toast and a bounce home; a session
  // the server ended keeps spec §6's toast.
  if (!user && session.wasEnded()) return <SessionEnded message={t('library.playlistsLogin')} />;
  if (!user)
    return <SignInPage heading={t('nav.playlists')} copy={{ icon: ListVideo, title: t('library.playlistsSignInTitle'), text: t('library.playlistsSignInText') }} />;
  return <MyPlaylists userName={user.userName} />;
}

function MyPlaylists({ userName }: { userName: string }) {
  const q = useMyPlaylists(userName);
  const qc = useQueryClient();
  useLoginGuard(q.error, t('library.playlistsLogin'));
  const [openMenu, setOpenMenu] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: myPlaylistsKey(userName) });

  const remover = useConfirmedDelete<PlaylistSummary>(deletePlaylist, t('library.playlistDeleted'), refresh);

  const playlists = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="mx-auto max-w-7xl px-4 py-6">
      <h1 className="mb-6 text-2xl font-bold">{t('nav.playlists')}</h1>
      {q.isPending ? (
        <Spinner label={t('playlist.loading')} />
      ) : playlists.length === 0 ? (
        <EmptyState kind="playlist" title={t('search.noPlaylists')} text={t('playlist.noneCreated')} />
      ) : (
        <MediaGrid label={t('library.yourPlaylists')}>
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
                    label={t('library.optionsFor', { name: p.name })}
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
        title={t('library.deletePlaylist')}
        text={remover.pending ? t('library.deletePlaylistText', { name: remover.pending.name }) : ''}
        onConfirm={remover.confirm}
        onClose={remover.cancel}
        busy={remover.busy}
      />
    </div>
  );
}
