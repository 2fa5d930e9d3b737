/**
 * The theme before first paint (ADR 020): the stored choice, else the system's, set on <html data-theme>.
 * Inline in index.html's head (vite.config.ts puts it there) so the first paint waits for no request;
 * the server's CSP allows exactly this script by its hash (apps/server/src/app.ts), computed from this
 * same string, so an edit here cannot leave the two apart.
 */

/** The localStorage key of the choice ('light' | 'dark'; no key: follow the system). */
export const THEME_KEY = 'glimpse.theme';

export const THEME_BOOT_SCRIPT = `try{var c=localStorage.getItem(${JSON.stringify(THEME_KEY)});document.documentElement.setAttribute('data-theme',c==='light'||c==='dark'?c:'system')}catch(e){document.documentElement.setAttribute('data-theme','system')}`;
