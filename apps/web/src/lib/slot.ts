import { useSyncExternalStore } from 'react';

/**
 * A value one component reports and others use, held outside React state so that the component
 * holding the slot does not render again when it changes: only the readers that subscribe do (the
 * watch page's <video>, which the player reports and the chapter list follows).
 */
export interface Slot<T> {
  get(): T | null;
  set(value: T | null): void;
  subscribe(listener: () => void): () => void;
}

export function createSlot<T>(): Slot<T> {
  let value: T | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      if (next === value) return;
      value = next;
      for (const l of listeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The slot's value, rendering again when it changes. */
export function useSlot<T>(slot: Slot<T>): T | null {
  return useSyncExternalStore(slot.subscribe, slot.get, slot.get);
}
