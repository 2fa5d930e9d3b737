import { livePrivacies, type Live, type LiveWithKey } from '@glimpse/contract';
import { Radio } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { fileProblem, IMAGE_ACCEPT, useUploadLimits } from '@/components/media/upload-limits.ts';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/dialog.tsx';
import { SignInPage } from '@/components/ui/sign-in-prompt.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { TextArea, TextField } from '@/components/ui/text-field.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage } from '@/lib/api-client.ts';
import type { MessageKey } from '@/lib/i18n/en.ts';
import { t } from '@/lib/i18n/i18n.ts';
import { useAuth } from '@/lib/me.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { useCreateLive, useLiveThumbnail, useMyLives, useNewKey } from '../api/lives-api.ts';

const privacyText: Record<(typeof livePrivacies)[number], MessageKey> = { public: 'live.public', unlisted: 'live.unlisted', private: 'live.private' };
const stateText: Record<Live['state'], MessageKey> = { waiting: 'live.stateWaiting', live: 'live.badge', ended: 'live.stateEnded' };

/** A png/jpeg file input with the upload form's checks (type, size limit): answers a valid file or null, saying why not. */
function useImagePick() {
  const limits = useUploadLimits();
  const [problem, setProblem] = useState<string | null>(null);
  const pick = (file: File | undefined): File | null => {
    const why = file ? fileProblem(file, 'image', limits.thumbnailMb) : null;
    setProblem(why);
    return file && !why ? file : null;
  };
  return { pick, problem };
}

/** A live's thumbnail in the list: shown, changed or removed by its creator. */
function LiveThumbnail({ live }: { live: Live }) {
  const thumbnail = useLiveThumbnail();
  const { pick, problem } = useImagePick();
  const inputId = useId();
  const change = async (file: File | null) => {
    try {
      const res = await thumbnail.mutateAsync({ liveId: live._id, file });
      toast.success(res.message);
    } catch (err) {
      toast.error(errorMessage(err));
    }
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      {live.thumbnail && <img src={live.thumbnail} alt={t('live.thumbnailOf', { title: live.title })} className="h-12 w-20 rounded object-cover" />}
      <label htmlFor={inputId} className="cursor-pointer text-sm text-link underline focus-within:outline-2">
        {t('live.changeThumbnail')}
        <input
          id={inputId}
          type="file"
          accept={IMAGE_ACCEPT}
          className="sr-only"
          disabled={thumbnail.isPending}
          onChange={(e) => {
            const file = pick(e.target.files?.[0]);
            e.target.value = '';
            if (file) void change(file);
          }}
        />
      </label>
      {live.thumbnail && (
        <Button variant="secondary" size="sm" onClick={() => void change(null)} loading={thumbnail.isPending}>
          {t('live.removeThumbnail')}
        </Button>
      )}
      {problem && <p role="alert" className="w-full text-sm text-danger">{problem}</p>}
    </div>
  );
}

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
  const thumbnail = useLiveThumbnail();
  const { pick, problem } = useImagePick();
  const [image, setImage] = useState<File | null>(null);
  const [pickerKey, setPickerKey] = useState(0);
  const imageId = useId();
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
      if (problem) return;
      const res = await create.mutateAsync({ title, description, privacy, permanent, saveReplay, latencyMode: lowLatency ? 'low' : 'normal' });
      toast.success(res.message);
      onCreated(res.data);
      setTitle('');
      setDescription('');
      if (image) {
        // The live exists and its key is shown even if the image is then refused (the list can set it again).
        setImage(null);
        setPickerKey((k) => k + 1);
        await thumbnail.mutateAsync({ liveId: res.data.live._id, file: image });
      }
    } catch (err) {
      toast.error(errorMessage(err));
    }
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-3 rounded-xl border border-line p-4" aria-label={t('live.create')}>
      <TextField label={t('live.fieldTitle')} value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={100} />
      <TextArea label={t('live.fieldDescription')} value={description} onChange={(e) => setDescription(e.target.value)} />
      <label htmlFor={imageId} className="text-sm font-medium">
        {t('live.fieldThumbnail')}
      </label>
      <input
        key={pickerKey}
        id={imageId}
        type="file"
        accept={IMAGE_ACCEPT}
        className="text-sm"
        aria-describedby={problem ? `${imageId}-problem` : undefined}
        onChange={(e) => setImage(pick(e.target.files?.[0]))}
      />
      {problem && (
        <p id={`${imageId}-problem`} role="alert" className="text-sm text-danger">
          {problem}
        </p>
      )}
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
      <Button type="submit" className="self-start" loading={create.isPending || thumbnail.isPending}>
        {t('live.create')}
      </Button>
    </form>
  );
}

/** The creator's lives: create one (its key shown once), renew a key (after a confirmation: the old one stops working), open a live's page. */
export default function MyLives() {
  useDocumentTitle(t('live.myLives'));
  const { user } = useAuth();
  const lives = useMyLives();
  const newKey = useNewKey();
  const [shown, setShown] = useState<LiveWithKey | null>(null);
  const [renewing, setRenewing] = useState<string | null>(null);
  if (!user) return <SignInPage heading={t('live.myLives')} copy={{ icon: Radio, title: t('live.signInTitle'), text: t('live.signInText') }} />;
  const renew = async (liveId: string) => {
    try {
      const res = await newKey.mutateAsync(liveId);
      toast.success(res.message);
      setShown(res.data);
      setRenewing(null);
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
              <LiveThumbnail live={l} />
              <Button variant="secondary" size="sm" onClick={() => setRenewing(l._id)}>
                {t('live.newKey')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={renewing !== null}
        title={t('live.newKeyTitle')}
        text={t('live.newKeyText')}
        confirmLabel={t('live.newKeyConfirm')}
        busy={newKey.isPending}
        onConfirm={() => renewing && void renew(renewing)}
        onClose={() => setRenewing(null)}
      />
    </div>
  );
}
