// Long tables (a run keeps up to 10 000 events) start with their first rows and a button for the rest, so
// a busy run's page stays quick to render and to scroll.
import { useState, type ReactNode } from 'react';

const FIRST = 200;

export function useCapped<T>(rows: T[]): { shown: T[]; rest: ReactNode } {
  const [all, setAll] = useState(false);
  if (all || rows.length <= FIRST) return { shown: rows, rest: null };
  return {
    shown: rows.slice(0, FIRST),
    rest: (
      <button type="button" className="secondary show-all" onClick={() => setAll(true)}>
        Show all {rows.length.toLocaleString()} rows
      </button>
    ),
  };
}
