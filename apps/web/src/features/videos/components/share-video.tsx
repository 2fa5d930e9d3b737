import { EMBED_SIZE, embedCode, embedPath } from '@glimpse/contract/embed-code';
import { Check, Copy, Share2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { Dialog } from '@/components/ui/dialog.tsx';
import { paths } from '@/config/paths.ts';
import { formatDuration } from '@/lib/format.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** The watch link and embed code, starting at `start` seconds when given. */
export function shareLinks(origin: string, videoId: string, title: string, start: number | null) {
  const at = start ? `?${new URLSearchParams({ t: String(start) })}` : '';
  const from = start ? `?${new URLSearchParams({ start: String(start) })}` : '';
  return {
    link: `${origin}${paths.video.getHref(videoId)}${at}`,
    embed: embedCode({ src: `${origin}${embedPath(videoId)}${from}`, title, ...EMBED_SIZE }),
  };
}

/** A read-only field with a Copy button; says "Copied" (to screen readers too) once copied. */
function CopyField({ label, value, multiline }: { label: string; value: string; multiline?: boolean }) {
  const id = useId();
  // What was copied: a changed value (the start time ticked) is not copied yet.
  const [result, setResult] = useState<{ value: string; copied: 'yes' | 'failed' } | null>(null);
  const copied = result?.value === value ? result.copied : null;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setResult({ value, copied: 'yes' });
    } catch {
      // No clipboard access (an insecure origin, a denied permission): select it for Ctrl+C.
      (document.getElementById(id) as HTMLInputElement | null)?.select();
      setResult({ value, copied: 'failed' });
    }
  };
  const props = {
    id,
    value,
    readOnly: true,
    onFocus: (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => e.currentTarget.select(),
    className: 'min-w-0 flex-1 rounded-lg border border-line-strong bg-surface-muted px-3 py-2 font-mono text-xs text-fg',
  };
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className={multiline ? 'flex flex-col gap-2' : 'flex gap-2'}>
        {multiline ? <textarea {...props} rows={4} className={`${props.className} resize-none`} /> : <input {...props} type="text" />}
        <Button variant="secondary" size="sm" className={multiline ? 'self-end' : 'self-center'} onClick={() => void copy()} aria-label={t('share.copyLabel', { what: label.toLowerCase() })}>
          {copied === 'yes' ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
          {copied === 'yes' ? t('share.copied') : t('share.copy')}
        </Button>
      </div>
      <p role="status" className="min-h-4 text-xs text-fg-muted">
        {copied === 'yes' && t('share.copiedLabel', { what: label })}
        {copied === 'failed' && t('share.copyBlocked')}
      </p>
    </div>
  );
}

function ShareBody({ videoId, title, time }: { videoId: string; title: string; time: number }) {
  const [startAt, setStartAt] = useState(false);
  const checkId = useId();
  const links = shareLinks(window.location.origin, videoId, title, startAt && time > 0 ? time : null);
  return (
    <div className="flex flex-col gap-3">
      <CopyField label={t('share.link')} value={links.link} />
      <label htmlFor={checkId} className="flex items-center gap-2 text-sm">
        <input id={checkId} type="checkbox" className="size-4 accent-accent" checked={startAt} disabled={time <= 0} onChange={(e) => setStartAt(e.target.checked)} />
        {t('share.startAt', { time: formatDuration(time) })}
      </label>
      <CopyField label={t('share.embed')} value={links.embed} multiline />
    </div>
  );
}

/** The watch page's Share button and dialog; `currentTime` is read when the dialog opens. */
export function ShareVideo({ videoId, title, currentTime }: { videoId: string; title: string; currentTime: () => number }) {
  const [time, setTime] = useState<number | null>(null);
  return (
    <>
      <Button variant="secondary" onClick={() => setTime(Math.floor(currentTime()))}>
        <Share2 className="size-5" aria-hidden />
        {t('share.button')}
      </Button>
      <Dialog open={time !== null} onClose={() => setTime(null)} title={t('share.button')}>
        {time !== null && <ShareBody videoId={videoId} title={title} time={time} />}
      </Dialog>
    </>
  );
}
