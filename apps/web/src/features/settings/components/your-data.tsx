import { useMutation } from '@tanstack/react-query';
import { Download, TriangleAlert } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button.tsx';
import { Dialog } from '@/components/ui/dialog.tsx';
import { TextField } from '@/components/ui/text-field.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { session } from '@/lib/session.ts';
import { useSetMe } from '@/lib/me.ts';
import { deleteAccount, downloadMyData } from '../api/settings-api.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** The password dialog of the danger zone; a wrong password keeps it open with the server's message. */
function DeleteAccountDialog({ onClose, onDeleted }: { onClose: () => void; onDeleted: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: () => deleteAccount(password),
    onSuccess: onDeleted,
    onError: (err) => setError(errorMessage(err)),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!password) return setError(t('settings.enterPassword'));
    setError(null);
    remove.mutate();
  };
  return (
    <Dialog open onClose={onClose} title={t('settings.deleteAccount')}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <p className="text-sm text-fg-muted">
          {t('settings.deleteAccountText')}
        </p>
        <TextField
          label={t('settings.yourPassword')}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={error ?? undefined}
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="danger" loading={remove.isPending}>
            {t('settings.deleteMyAccount')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * Settings: download everything the account holds, and the danger zone that deletes it. After the
 * deletion the visitor lands on home with a toast; the session ends as this page goes (its cleanup),
 * so the guarded settings page is never seen signed out (which would toast 'please login').
 */
export function YourData() {
  const [confirming, setConfirming] = useState(false);
  const download = useMutation({ mutationFn: downloadMyData, onError: (err) => toast.error(errorMessage(err)) });
  const navigate = useNavigate();
  const setMe = useSetMe();
  const signOut = useRef(setMe);
  const deleted = useRef(false);
  useEffect(() => {
    signOut.current = setMe;
  });
  useEffect(
    () => () => {
      if (!deleted.current) return;
      session.clear();
      signOut.current(null);
    },
    [],
  );
  const onDeleted = () => {
    deleted.current = true;
    navigate(paths.home.getHref(), { replace: true });
    toast.success(t('settings.accountDeleted'));
  };
  return (
    <section aria-labelledby="your-data" className="max-w-2xl pb-8">
      <h2 id="your-data" className="text-lg font-semibold">
        {t('settings.yourData')}
      </h2>
      <div className="mt-3 flex flex-col gap-4 rounded-xl border border-line p-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-fg-muted">{t('settings.yourDataText')}</p>
          <Button variant="secondary" onClick={() => download.mutate()} loading={download.isPending}>
            <Download className="size-4" aria-hidden /> {t('settings.downloadData')}
          </Button>
        </div>
        <div role="group" aria-labelledby="danger-zone" className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-danger-line bg-danger-subtle p-3">
          <div>
            <h3 id="danger-zone" className="flex items-center gap-1 text-sm font-semibold text-danger">
              <TriangleAlert className="size-4" aria-hidden /> {t('settings.dangerZone')}
            </h3>
            <p className="text-sm text-danger">{t('settings.cannotUndo')}</p>
          </div>
          <Button variant="danger" onClick={() => setConfirming(true)}>
            {t('settings.deleteAccount')}
          </Button>
        </div>
      </div>
      {confirming && <DeleteAccountDialog onClose={() => setConfirming(false)} onDeleted={onDeleted} />}
    </section>
  );
}
