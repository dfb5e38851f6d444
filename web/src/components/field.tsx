// A label above its control that points at it (rather than wraps it), so a select's options or a
// textarea's text never join the label's text.
import { useId, type ReactNode } from 'react';

/** A label above its control; `control` gets the id the label points at. */
export function Field({ label, control }: { label: string; control: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {control(id)}
    </div>
  );
}
