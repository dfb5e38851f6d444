import { useEffect, useState } from 'react';

/** Copies `value` to the clipboard; says so for a moment, to screen readers too. */
export function CopyButton({ value, what }: { value: string; what: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  return (
    <>
      <button type="button" className="secondary copy" onClick={copy} aria-label={`Copy ${what}`}>
        Copy
      </button>
      <span role="status" className={state === 'failed' ? 'error' : 'muted'}>
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Could not copy' : ''}
      </span>
    </>
  );
}
