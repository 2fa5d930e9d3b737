import { useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { t } from '@/lib/i18n/i18n.ts';

/** A text box with Cancel / submit; blank (trimmed) text is not sent. */
export function CommentBox({
  label,
  submitLabel,
  initial = '',
  autoFocus,
  onSubmit,
  onCancel,
}: {
  label: string;
  submitLabel: string;
  initial?: string;
  autoFocus?: boolean;
  onSubmit: (content: string) => Promise<boolean>;
  onCancel?: () => void;
}) {
  const [text, setText] = useState(initial);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const content = text.trim();
    if (!content || busy) return;
    setBusy(true);
    const done = await onSubmit(content);
    setBusy(false);
    if (done) setText('');
  };
  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <textarea
        aria-label={label}
        placeholder={label}
        value={text}
        autoFocus={autoFocus}
        rows={2}
        onChange={(e) => setText(e.target.value)}
        className="w-full resize-y rounded-lg border border-line-strong px-3 py-2 text-sm"
      />
      <div className="flex justify-end gap-2">
        {onCancel && (
          <Button variant="ghost" size="sm" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
        )}
        <Button type="submit" size="sm" disabled={text.trim() === ''} loading={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
