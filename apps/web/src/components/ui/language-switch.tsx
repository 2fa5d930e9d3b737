import { Languages } from 'lucide-react';
import { useId } from 'react';
import toast from 'react-hot-toast';
import { isLocale, localeNames, locales, setLocale, t, useLocale } from '@/lib/i18n/i18n.ts';

/**
 * The UI language (ADR 021), for every visitor: remembered in this browser, <html lang> follows.
 * Each option names its language in that language.
 */
export function LanguageSwitch({ className }: { className?: string }) {
  const locale = useLocale();
  const id = useId();
  const onChange = (value: string) => {
    if (!isLocale(value)) return;
    setLocale(value).catch((err: unknown) => {
      console.warn('Loading the language failed', err);
      toast.error(t('language.loadFailed'));
    });
  };
  return (
    <div className={className}>
      <label htmlFor={id} className="sr-only">
        {t('shell.language')}
      </label>
      <div className="relative flex items-center">
        <Languages className="pointer-events-none absolute left-2 size-4" aria-hidden />
        <select
          id={id}
          value={locale}
          title={t('shell.language')}
          onChange={(e) => onChange(e.target.value)}
          className="h-9 appearance-none rounded-full border border-line-strong bg-transparent pl-7 pr-2 text-sm font-medium hover:bg-surface-subtle"
        >
          {locales.map((l) => (
            <option key={l} value={l} lang={l}>
              {localeNames[l]}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
