/**
 * localStorage that never throws. A frame on another site with third-party storage blocked (the
 * embed) throws a SecurityError on any access, even reading `window.localStorage`; a full quota
 * throws on writes. Then reads find nothing and writes are dropped: what is remembered lasts for
 * the page only, and playback, theme or language never break over it.
 */
function area(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export const storage = {
  get(key: string): string | null {
    try {
      return area()?.getItem(key) ?? null;
    } catch {
      return null;
    }
  },
  /** Whether the value was stored. */
  set(key: string, value: string): boolean {
    try {
      const s = area();
      s?.setItem(key, value);
      return s !== null;
    } catch {
      return false;
    }
  },
  remove(key: string): void {
    try {
      area()?.removeItem(key);
    } catch {
      // Blocked: there is nothing stored to remove.
    }
  },
  /** The stored JSON value, or null when absent, blocked or not JSON. */
  getJson(key: string): unknown {
    const raw = storage.get(key);
    if (raw === null) return null;
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return null;
    }
  },
};
