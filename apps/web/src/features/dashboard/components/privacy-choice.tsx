import type { VideoPrivacy } from '@glimpse/contract';
import { t, type MessageKey } from '@/lib/i18n/i18n.ts';

/** The privacy options of the upload and edit dialogs; `scheduled` is private until `publishAt` (ADR 013). */
export type PrivacyMode = 'public' | 'unlisted' | 'private' | 'scheduled';
export interface PrivacyValue {
  mode: PrivacyMode;
  /** A `datetime-local` value (the viewer's time zone); used when scheduled. */
  publishAt: string;
}

const OPTIONS: { mode: PrivacyMode; label: MessageKey; hint: MessageKey }[] = [
  { mode: 'public', label: 'status.public', hint: 'privacy.publicHint' },
  { mode: 'unlisted', label: 'status.unlisted', hint: 'privacy.unlistedHint' },
  { mode: 'private', label: 'status.private', hint: 'privacy.privateHint' },
  { mode: 'scheduled', label: 'status.scheduled', hint: 'privacy.scheduledHint' },
];

/** An ISO time as a `datetime-local` value in the viewer's time zone. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** What the dialogs show for a video (a spec client's answer may carry only isPublished). */
export interface PrivacyState {
  isPublished: boolean;
  privacy?: VideoPrivacy;
  publishAt?: string | null;
}

export const privacyOf = (video: PrivacyState): PrivacyValue =>
  video.publishAt
    ? { mode: 'scheduled', publishAt: toLocalInput(video.publishAt) }
    : { mode: video.privacy ?? (video.isPublished ? 'public' : 'private'), publishAt: '' };

/**
 * The form fields for the server: `privacy`, or a `publishAt` (ISO) for a scheduled video. A
 * schedule without a time is a message for the person instead.
 */
export function privacyFields(value: PrivacyValue): Record<string, string> | { error: string } {
  if (value.mode !== 'scheduled') return { privacy: value.mode };
  const at = new Date(value.publishAt);
  if (!value.publishAt || Number.isNaN(at.getTime())) return { error: t('privacy.scheduleMissing') };
  return { publishAt: at.toISOString() };
}

/** Public / Unlisted / Private / Scheduled (with its date and time), as a radio group. */
export function PrivacyChoice({ value, onChange }: { value: PrivacyValue; onChange: (v: PrivacyValue) => void }) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-fg-muted">{t('privacy.visibility')}</legend>
      {OPTIONS.map((o) => (
        <label key={o.mode} className="flex items-start gap-2 text-sm">
          <input
            type="radio"
            name="privacy"
            value={o.mode}
            checked={value.mode === o.mode}
            onChange={() => onChange({ ...value, mode: o.mode })}
            className="mt-0.5 size-4"
          />
          <span>
            <span className="font-medium">{t(o.label)}</span>
            <span className="block text-xs text-fg-muted">{t(o.hint)}</span>
          </span>
        </label>
      ))}
      {value.mode === 'scheduled' && (
        <label className="ml-6 flex flex-col gap-1 text-sm font-medium text-fg-muted">
          {t('privacy.publishOn')}
          <input
            type="datetime-local"
            value={value.publishAt}
            min={toLocalInput(new Date().toISOString())}
            onChange={(e) => onChange({ ...value, publishAt: e.target.value })}
            className="w-fit rounded-lg border border-line-strong p-2 text-sm font-normal"
          />
        </label>
      )}
    </fieldset>
  );
}
