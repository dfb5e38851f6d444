// The API key, kept in the browser's local storage (the settings page says so) and nowhere else; a change
// is announced so every mounted screen re-renders signed in or out.
import { useSyncExternalStore } from 'react';

const STORAGE = 'binlens.apiKey';
const listeners = new Set<() => void>();

export const currentKey = (): string | null => localStorage.getItem(STORAGE);

function announce(): void {
  for (const l of listeners) l();
}

export function rememberKey(key: string): void {
  localStorage.setItem(STORAGE, key);
  announce();
}

export function forgetKey(): void {
  if (currentKey() === null) return;
  localStorage.removeItem(STORAGE);
  announce();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Signing out in one tab signs out the others.
  const onStorage = (e: StorageEvent) => e.key === STORAGE && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export const useApiKey = (): string | null => useSyncExternalStore(subscribe, currentKey);
