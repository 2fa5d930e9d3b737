import { livePrivacies, type Live, type LiveWithKey } from '@glimpse/contract';
import { Radio } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button.tsx';
import { SignInPage } from '@/components/ui/sign-in-prompt.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { TextArea, TextField } from '@/components/ui/text-field.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage } from '@/lib/api-client.ts';
import type { MessageKey } from '@/lib/i18n/en.ts';
import { t } from '@/lib/i18n/i18n.ts';
import { useAuth } from '@/lib/me.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { useCreateLive, useMyLives, useNewKey } from '../api/lives-api.ts';

const privacyText: Record<(typeof livePrivacies)[number], MessageKey> = { public: 'live.public', unlisted: 'live.unlisted', private: 'live.private' };
const stateText: Record<Live['state'], MessageKey> = { waiting: 'live.stateWaiting', live: 'live.badge', ended: 'live.stateEnded' };

/** The server URL and the key, shown once: the key cannot be read again, only renewed. */
function KeyPanel({ created }: { created: LiveWithKey }) {
  return (
    <section aria-label={t('live.keyTitle')} className="flex flex-col gap-2 rounded-xl border border-accent bg-accent-subtle p-4">
      <h2 className="font-semibold">{t('live.keyTitle')}</h2>
      <p className="text-sm">{t('live.keyOnce')}</p>
      <TextField label={t('live.server')} readOnly value={created.rtmpUrl} onFocus={(e) => e.currentTarget.select()} />
      <TextField label={t('live.streamKey')} readOnly value={created.streamKey} onFocus={(e) => e.currentTarget.select()} />
      <Link className="text-link underline" to={paths.live.getHref(created.live._id)}>
        {t('live.openPage')}
      </Link>
    </section>
  );
}

function CreateLiveForm({ onCreated }: { onCreated: (c: LiveWithKey) => void }) {
  const create = useCreateLive();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [privacy, setPrivacy] = useState<(typeof livePrivacies)[number]>('public');
  const [permanent, setPermanent] = useState(false);
  const [saveReplay, setSaveReplay] = useState(true);
  const [lowLatency, setLowLatency] = useState(false);
  const privacyId = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const res = await create.mutateAsync({ title, description, privacy, permanent, saveReplay, latencyMode: lowLatency ? 'low' : 'normal' });
      toast.success(res.message);
      onCreated(res.data);
      setTitle('');
      setDescription('');
    } catch (err) {
      toast.error(errorMessage(err));
    }
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-3 rounded-xl border border-line p-4" aria-label={t('live.create')}>
      <TextField label={t('live.fieldTitle')} value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={100} />
      <TextArea label={t('live.fieldDescription')} value={description} onChange={(e) => setDescription(e.target.value)} />
      <label htmlFor={privacyId} className="text-sm font-medium">
        {t('live.fieldPrivacy')}
      </label>
      <select id={privacyId} className="h-10 rounded-lg border border-line bg-surface px-3 text-sm md:max-w-xs" value={privacy} onChange={(e) => setPrivacy(e.target.value as typeof privacy)}>
        {livePrivacies.map((p) => (
          <option key={p} value={p}>
            {t(privacyText[p])}
          </option>
        ))}
      </select>
      <label className="flex items-center gap-3 text-sm">
        <input type="checkbox" className="size-4" checked={permanent} onChange={(e) => setPermanent(e.target.checked)} />
        {t('live.fieldPermanent')}
      </label>
      <label className="flex items-center gap-3 text-sm">
        <input type="checkbox" className="size-4" checked={saveReplay} onChange={(e) => setSaveReplay(e.target.checked)} />
        {t('live.fieldSaveReplay')}
      </label>
      <label className="flex items-center gap-3 text-sm">
        <input type="checkbox" className="size-4" checked={lowLatency} onChange={(e) => setLowLatency(e.target.checked)} />
        {t('live.fieldLowLatency')}
      </label>
      <Button type="submit" className="self-start" loading={create.isPending}>
        {t('live.create')}
      </Button>
    </form>
  );
}

/** The creator's lives: create one (its key shown once), renew a key, open a live's page. */
export default function MyLives() {
  useDocumentTitle(t('live.myLives'));
  const { user } = useAuth();
  const lives = useMyLives();
  const newKey = useNewKey();
  const [shown, setShown] = useState<LiveWithKey | null>(null);
  if (!user) return <SignInPage heading={t('live.myLives')} copy={{ icon: Radio, title: t('live.signInTitle'), text: t('live.signInText') }} />;
  const renew = async (liveId: string) => {
    try {
      const res = await newKey.mutateAsync(liveId);
      toast.success(res.message);
      setShown(res.data);
    } catch (err) {
      toast.error(errorMessage(err));
    }
  };
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-5 px-4 py-6">
      <h1 className="text-2xl font-bold">{t('live.myLives')}</h1>
      {shown && <KeyPanel created={shown} />}
      <CreateLiveForm onCreated={setShown} />
      {lives.isPending ? (
        <Spinner label={t('live.loading')} />
      ) : lives.isError ? (
        <p role="alert">{errorMessage(lives.error)}</p>
      ) : lives.data.length === 0 ? (
        <p className="text-sm text-fg-muted">{t('live.none')}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-line rounded-xl border border-line" aria-label={t('live.myLives')}>
          {lives.data.map((l) => (
            <li key={l._id} className="flex flex-wrap items-center gap-3 p-3">
              <Link className="min-w-0 flex-1 truncate font-medium text-link" to={paths.live.getHref(l._id)}>
                {l.title}
              </Link>
              <span className="text-sm text-fg-muted">{t(stateText[l.state])}</span>
              <Button variant="secondary" size="sm" onClick={() => void renew(l._id)}>
                {t('live.newKey')}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
