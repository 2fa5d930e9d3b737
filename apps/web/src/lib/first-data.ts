import { FIRST_DATA_ELEMENT_ID, firstDataKey, type FirstData } from '@glimpse/contract/first-paint';
import type { Envelope, QueryValue } from './api-types.ts';

/**
 * The API answers the server embedded in the first page (ADR 017), each served once to the app's
 * own GET instead of the network, so the first screen renders from a filled query cache.
 */
let answers = new Map<string, unknown>();

/**
 * Reads the page's embedded answers. They are what the API answers an anonymous visitor, so a
 * visitor who is logged in here (a stored user) ignores them and asks with their own token.
 */
export function loadFirstData(loggedIn: boolean): boolean {
  const element = document.getElementById(FIRST_DATA_ELEMENT_ID);
  if (!element) return false;
  element.remove();
  if (loggedIn) return false;
  try {
    const data = JSON.parse(element.textContent ?? '') as FirstData;
    answers = new Map(Object.entries(data.answers ?? {}));
  } catch (err) {
    console.warn('The embedded first data could not be read', err);
  }
  return answers.size > 0;
}

/** The embedded answer to this GET, once; later calls go to the network. */
export function takeFirstAnswer<T>(path: string, query?: Record<string, QueryValue>): Envelope<T> | undefined {
  if (answers.size === 0) return undefined;
  const key = firstDataKey(path, query);
  if (!answers.has(key)) return undefined;
  const data = answers.get(key) as T;
  answers.delete(key);
  return { statusCode: 200, data, message: '', success: true };
}

/** Forget what is left (the first screen is on; a later visit must see fresh data). */
export function dropFirstData() {
  answers.clear();
}
