import type { TakedownNotice as Notice } from '@glimpse/contract';
import { REPORT_TEXT_MAX, type TakedownKind } from '@glimpse/contract/moderation-terms';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button.tsx';
import { TextArea } from '@/components/ui/text-field.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { useAppeal } from './moderation-calls.ts';
import { t } from '@/lib/i18n/i18n.ts';

/**
 * What the owner of a taken-down item sees: "Removed by the moderators: <reason>", and the one
 * appeal they may send (then its state). Nobody else is ever sent a taken-down item.
 */
export function TakedownNotice({ kind, id, notice, onAppealed }: { kind: TakedownKind; id: string; notice: Notice; onAppealed: (notice: Notice) => void }) {
  const [writing, setWriting] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const appeal = useAppeal();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return setError(t('mod.writeAppeal'));
    appeal.mutate(
      { kind, id, text: text.trim() },
      {
        onSuccess: (res) => {
          toast.success(res.message);
          setWriting(false);
          onAppealed(res.data);
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };

  return (
    <section role="status" aria-label={t('mod.notice')} className="my-3 rounded-lg border border-warning-line bg-warning-subtle p-3 text-sm text-warning">
      <p className="font-medium">{t('mod.removedNotice', { reason: notice.reason })}</p>
      <p className="mt-1 text-warning">{t('mod.onlyYou')}</p>
      {notice.appealedAt ? (
        <p className="mt-2">{notice.appealClosed ? t('mod.appealClosed') : t('mod.appealSent')}</p>
      ) : writing ? (
        <form onSubmit={submit} className="mt-2 flex flex-col gap-2" noValidate>
          <TextArea
            label={t('mod.yourAppeal')}
            maxLength={REPORT_TEXT_MAX}
            value={text}
            onChange={(e) => (setText(e.target.value), setError(null))}
          />
          {error && (
            <p role="alert" className="text-danger">
              {error}
            </p>
          )}
          <div className="flex gap-2">
            <Button type="submit" size="sm" loading={appeal.isPending}>
              {t('mod.sendAppeal')}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => setWriting(false)}>
              {t('common.cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <Button size="sm" variant="secondary" className="mt-2" onClick={() => setWriting(true)}>
          {t('mod.appeal')}
        </Button>
      )}
    </section>
  );
}
