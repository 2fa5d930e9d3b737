import { CAPTION_LANG } from '@glimpse/contract';
import { useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button.tsx';
import { TextField } from '@/components/ui/text-field.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { useCaptionChanges, useCaptions } from '../api/captions-api.ts';
import { t } from '@/lib/i18n/i18n.ts';

const ACCEPT = '.srt,.vtt,text/vtt,application/x-subrip';

/**
 * The edit dialog's captions: the tracks with Replace and Delete, and a form adding one
 * (SRT or WebVTT file, language tag, label). The server's message shows under the form.
 */
export function CaptionsSection({ videoId }: { videoId: string }) {
  const captions = useCaptions(videoId);
  const { save, remove } = useCaptionChanges(videoId);
  const [lang, setLang] = useState('');
  const [label, setLabel] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const replaceInput = useRef<HTMLInputElement>(null);
  const [replacing, setReplacing] = useState<{ lang: string; label: string } | null>(null);

  const upload = async (input: { lang: string; label: string; file: File }) => {
    setError(null);
    try {
      await save.mutateAsync(input);
      toast.success(t('captions.saved'));
      return true;
    } catch (err) {
      setError(errorMessage(err));
      return false;
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) return setError(t('captions.chooseFile'));
    if (!CAPTION_LANG.test(lang.trim())) return setError(t('captions.badLang'));
    if (!label.trim()) return setError(t('captions.labelRequired'));
    if (await upload({ lang: lang.trim(), label: label.trim(), file })) {
      setLang('');
      setLabel('');
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const list = captions.data ?? [];
  return (
    <section aria-labelledby={`captions-${videoId}`} className="flex flex-col gap-3 border-t border-line pt-4">
      <h3 id={`captions-${videoId}`} className="text-sm font-semibold text-fg">
        {t('player.captions')}
      </h3>
      {captions.isSuccess && list.length === 0 && <p className="text-sm text-fg-muted">{t('captions.none')}</p>}
      {list.length > 0 && (
        <ul className="flex flex-col gap-2">
          {list.map((c) => (
            <li key={c.lang} className="flex flex-wrap items-center gap-2 text-sm">
              <span className="flex-1">
                {c.label} <span className="text-fg-muted">({c.lang})</span>
              </span>
              <Button size="sm" variant="secondary" aria-label={t('captions.replaceLabel', { label: c.label })} onClick={() => (setReplacing(c), replaceInput.current?.click())}>
                {t('captions.replace')}
              </Button>
              <Button
                size="sm"
                variant="ghost"
                aria-label={t('captions.deleteLabel', { label: c.label })}
                loading={remove.isPending && remove.variables === c.lang}
                onClick={() =>
                  remove.mutate(c.lang, {
                    onSuccess: () => toast.success(t('captions.deleted')),
                    onError: (err) => setError(errorMessage(err)),
                  })
                }
              >
                {t('common.delete')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <input
        ref={replaceInput}
        type="file"
        accept={ACCEPT}
        className="hidden"
        aria-hidden
        tabIndex={-1}
        onChange={(e) => {
          const picked = e.target.files?.[0];
          e.target.value = '';
          if (picked && replacing) void upload({ ...replacing, file: picked });
        }}
      />
      <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        <div className="flex flex-col gap-1 sm:col-span-2">
          <label htmlFor={`caption-file-${videoId}`} className="text-sm font-medium text-fg-muted">
            Caption file (SRT or WebVTT)
          </label>
          <input ref={fileInput} id={`caption-file-${videoId}`} type="file" accept={ACCEPT} onChange={(e) => setFile(e.target.files?.[0] ?? null)} className="text-sm" />
        </div>
        <TextField label={t('captions.langTag')} placeholder="en" value={lang} onChange={(e) => setLang(e.target.value)} />
        <TextField label={t('captions.label')} placeholder="English" value={label} onChange={(e) => setLabel(e.target.value)} />
        {error && (
          <p role="alert" className="text-sm text-danger sm:col-span-2">
            {error}
          </p>
        )}
        <div className="flex justify-end sm:col-span-2">
          <Button type="submit" variant="secondary" loading={save.isPending}>
            {t('captions.upload')}
          </Button>
        </div>
      </form>
    </section>
  );
}
