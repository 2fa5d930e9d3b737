import { useSyncExternalStore } from 'react';
import { en, type MessageKey, type Messages } from './en.ts';
import { storage } from '../storage.ts';
import { compileMessage, type FormatValues } from './message-format.ts';

/** The UI's languages (ADR 021). English ships in the main bundle; the others load on first use. */
export const locales = ['en', 'fr', 'es'] as const;
export type Locale = (typeof locales)[number];
/** Each language named in itself, so a reader finds theirs whatever the current one. */
export const localeNames: Record<Locale, string> = { en: 'English', fr: 'Français', es: 'Español' };

const STORAGE_KEY = 'glimpse.locale';
const loaders: Record<Exclude<Locale, 'en'>, () => Promise<{ default: Messages }>> = {
  fr: () => import('./fr.ts'),
  es: () => import('./es.ts'),
};

const catalogues: Partial<Record<Locale, Messages>> = { en };
let current: Locale = 'en';
const listeners = new Set<() => void>();
// Compiled messages per locale; plain strings (no '{') skip the parser.
const compiled = new Map<string, (values?: FormatValues) => string>();

export const isLocale = (v: unknown): v is Locale => typeof v === 'string' && (locales as readonly string[]).includes(v);

/** The stored choice, else the browser's language, else English. */
export function preferredLocale(): Locale {
  const stored = storage.get(STORAGE_KEY);
  if (isLocale(stored)) return stored;
  const langs = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  for (const lang of langs) {
    const base = lang?.toLowerCase().split('-')[0];
    if (isLocale(base)) return base;
  }
  return 'en';
}

export function getLocale(): Locale {
  return current;
}

/** Load the locale's catalogue if needed, make it current, set <html lang>, and tell subscribers. */
export async function setLocale(locale: Locale, { remember = true } = {}): Promise<void> {
  if (!catalogues[locale]) catalogues[locale] = (await loaders[locale as Exclude<Locale, 'en'>]()).default;
  // Storage blocked: the choice lasts for this page only.
  if (remember) storage.set(STORAGE_KEY, locale);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
  if (current === locale) return;
  current = locale;
  listeners.forEach((l) => l());
}

/** Start-up: the preferred locale, without storing it (a stored value means the user chose). */
export function initLocale(): Promise<void> {
  return setLocale(preferredLocale(), { remember: false });
}

export type MessageValues = FormatValues;

/** The current locale's text for `key`, ICU placeholders filled from `values`. */
export function t(key: MessageKey, values?: MessageValues): string {
  const message = catalogues[current]?.[key] ?? en[key];
  if (!message.includes('{')) return message;
  const id = `${current}:${key}`;
  let format = compiled.get(id);
  if (!format) {
    format = compileMessage(message, current);
    compiled.set(id, format);
  }
  return format(values);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current locale; the component renders again when it changes. */
export function useLocale(): Locale {
  return useSyncExternalStore(subscribe, getLocale, getLocale);
}

/** `t`, in a component that must render again when the locale changes. */
export function useT(): typeof t {
  useLocale();
  return t;
}

export type { MessageKey, Messages };
