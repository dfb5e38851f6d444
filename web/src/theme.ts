// Light or dark, chosen by the user and remembered; until then the system's preference.
import { useSyncExternalStore } from 'react';

export type Theme = 'light' | 'dark';
const STORAGE = 'binlens.theme';
const listeners = new Set<() => void>();

const system = (): Theme => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
export const currentTheme = (): Theme => (localStorage.getItem(STORAGE) as Theme | null) ?? system();

export function applyTheme(): void {
  document.documentElement.dataset.theme = currentTheme();
}

export function setTheme(theme: Theme): void {
  localStorage.setItem(STORAGE, theme);
  applyTheme();
  for (const l of listeners) l();
}

export const useTheme = (): Theme =>
  useSyncExternalStore((l) => {
    listeners.add(l);
    return () => listeners.delete(l);
  }, currentTheme);
