import { WATCHED_WORD_MAX } from '@glimpse/contract';
import { X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { TextField } from '@/components/ui/text-field.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { useWatchedWordChange, useWatchedWords } from '../api/creator-moderation-api.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** Watched words (admins): a new comment or tweet containing one is held for review. */
export default function WatchedWordsRoute() {
  useDocumentTitle(t('admin.tabWatchedWords'));
  const words = useWatchedWords();
  const change = useWatchedWordChange();
  const [word, setWord] = useState('');

  const add = (e: FormEvent) => {
    e.preventDefault();
    const text = word.trim();
    if (!text) return;
    change.mutate(
      { add: text },
      {
        onSuccess: () => {
          setWord('');
          toast.success(t('admin.wordAdded'));
        },
        onError: (err) => toast.error(errorMessage(err)),
      },
    );
  };

  const remove = (id: string) =>
    change.mutate({ remove: id }, { onSuccess: () => toast.success(t('admin.wordRemoved')), onError: (err) => toast.error(errorMessage(err)) });

  return (
    <section aria-labelledby="watched-words" className="flex flex-col gap-4">
      <div>
        <h2 id="watched-words" className="text-lg font-semibold">
          {t('admin.tabWatchedWords')}
        </h2>
        <p className="text-sm text-fg-muted">
          {t('admin.watchedText')}
        </p>
      </div>
      <form onSubmit={add} className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1">
          <TextField label={t('admin.wordOrPhrase')} value={word} maxLength={WATCHED_WORD_MAX} onChange={(e) => setWord(e.target.value)} />
        </div>
        <Button type="submit" loading={change.isPending} disabled={!word.trim()}>
          {t('admin.add')}
        </Button>
      </form>
      {words.isPending ? (
        <Spinner label={t('admin.loadingWords')} />
      ) : words.isError ? (
        <p role="alert" className="text-sm text-danger">
          {errorMessage(words.error)}
        </p>
      ) : words.data.length === 0 ? (
        <EmptyState kind="moderation" title={t('admin.noWords')} text={t('admin.noWordsText')} />
      ) : (
        <ul aria-label={t('admin.tabWatchedWords')} className="flex flex-wrap gap-2">
          {words.data.map((w) => (
            <li key={w._id} className="flex items-center gap-1 rounded-full bg-surface-subtle py-1 pl-3 pr-1 text-sm">
              {w.word}
              <button
                type="button"
                aria-label={t('admin.removeWord', { word: w.word })}
                onClick={() => remove(w._id)}
                className="flex size-7 items-center justify-center rounded-full hover:bg-surface-strong"
              >
                <X className="size-4" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
