// The fields a collection is created and edited with.
import { Field } from '../../components/field';
import { SCOPES, type Scope } from './api';

export interface CollectionDraft {
  name: string;
  description: string;
  scope: Scope;
}

export function CollectionFields({
  value,
  onChange,
}: {
  value: CollectionDraft;
  onChange: (v: CollectionDraft) => void;
}) {
  const set = (change: Partial<CollectionDraft>) => onChange({ ...value, ...change });
  return (
    <>
      <Field
        label="Name"
        control={(id) => <input id={id} required value={value.name} onChange={(e) => set({ name: e.target.value })} />}
      />
      <Field
        label="Description"
        control={(id) => (
          <textarea id={id} rows={2} value={value.description} onChange={(e) => set({ description: e.target.value })} />
        )}
      />
      <Field
        label="Scope"
        control={(id) => (
          <select id={id} value={value.scope} onChange={(e) => set({ scope: e.target.value as Scope })}>
            {SCOPES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        )}
      />
    </>
  );
}
