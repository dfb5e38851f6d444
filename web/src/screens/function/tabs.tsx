// Tabs as ARIA describes them: a tablist of buttons (arrow keys move between them) controlling one panel.
import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface Tab {
  key: string;
  label: string;
  render: () => ReactNode;
}

export function Tabs({ tabs, label }: { tabs: readonly Tab[]; label: string }) {
  const [current, setCurrent] = useState(tabs[0]?.key);
  const base = useId();
  const list = useRef<HTMLDivElement>(null);
  const index = Math.max(
    0,
    tabs.findIndex((t) => t.key === current),
  );
  const onKey = (e: KeyboardEvent) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = (index + step + tabs.length) % tabs.length;
    setCurrent(tabs[next]!.key);
    list.current?.querySelectorAll<HTMLButtonElement>('[role=tab]')[next]?.focus();
  };
  const active = tabs[index];
  return (
    <>
      <div role="tablist" aria-label={label} className="tabs button-tabs" ref={list} onKeyDown={onKey}>
        {tabs.map((t, i) => (
          <button
            key={t.key}
            type="button"
            role="tab"
            id={`${base}-tab-${t.key}`}
            aria-selected={i === index}
            aria-controls={`${base}-panel`}
            tabIndex={i === index ? 0 : -1}
            onClick={() => setCurrent(t.key)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {active && (
        <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${active.key}`} tabIndex={0}>
          {active.render()}
        </div>
      )}
    </>
  );
}
