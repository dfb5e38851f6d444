// The parameters of matching and unstrip runs: thresholds, and which binaries candidates may come from.
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { Field } from '../../components/field';
import type { MatchSettings, UnstripSettings } from './runs';

function Percent({ label, value, onChange }: { label: string; value: number; onChange: (v: number) => void }) {
  return (
    <label>
      {label}
      <input
        type="number"
        min={0}
        max={100}
        step={1}
        value={value}
        onChange={(e) => onChange(Math.min(100, Math.max(0, Number(e.target.value))))}
      />
    </label>
  );
}

function Count(props: { label: string; value: number; min: number; max: number; onChange: (v: number) => void }) {
  const { label, value, min, max, onChange } = props;
  return (
    <label>
      {label}
      <input
        type="number"
        min={min}
        max={max}
        step={1}
        value={value}
        onChange={(e) => onChange(Math.min(max, Math.max(min, Math.round(Number(e.target.value)))))}
      />
    </label>
  );
}

/** A multiple choice of ids; none chosen means no restriction. */
function IdChoice(props: {
  label: string;
  options: readonly { id: number; label: string }[] | undefined;
  value: readonly number[];
  onChange: (ids: number[]) => void;
}) {
  const { label, options, value, onChange } = props;
  return (
    <Field
      label={label}
      control={(id) => (
        <select
          id={id}
          multiple
          size={4}
          value={value.map(String)}
          onChange={(e) => onChange([...e.target.selectedOptions].map((o) => Number(o.value)))}
        >
          {(options ?? []).map((o) => (
            <option key={o.id} value={o.id}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

/** Collections and binaries to restrict candidates to: the newest the caller can see. */
function useFilterOptions() {
  const collections = useQuery({
    queryKey: ['matches', 'collection-options'],
    queryFn: () => unwrap(api.GET('/v2/collections', { params: { query: { limit: 50 } } })),
    select: (d) => d.results.map((c) => ({ id: c.collection_id, label: c.collection_name })),
  });
  const binaries = useQuery({
    queryKey: ['matches', 'binary-options'],
    queryFn: () => unwrap(api.GET('/v2/search/binaries', { params: { query: { page_size: 100 } } })),
    select: (d) => d.results.map((b) => ({ id: b.binary_id, label: `${b.binary_name} (analysis ${b.analysis_id})` })),
  });
  return { collections: collections.data, binaries: binaries.data };
}

export function MatchSettingsFields({
  value,
  onChange,
}: {
  value: MatchSettings;
  onChange: (v: MatchSettings) => void;
}) {
  const options = useFilterOptions();
  const set = (change: Partial<MatchSettings>) => onChange({ ...value, ...change });
  return (
    <fieldset className="match-settings">
      <legend>Matching</legend>
      <Percent label="Min similarity %" value={value.minSimilarity} onChange={(v) => set({ minSimilarity: v })} />
      <Count
        label="Candidates per function"
        min={1}
        max={30}
        value={value.resultsPerFunction}
        onChange={(v) => set({ resultsPerFunction: v })}
      />
      <IdChoice
        label="Only from collections"
        options={options.collections}
        value={value.collectionIds}
        onChange={(ids) => set({ collectionIds: ids })}
      />
      <IdChoice
        label="Only from binaries"
        options={options.binaries}
        value={value.binaryIds}
        onChange={(ids) => set({ binaryIds: ids })}
      />
      <label className="check">
        <input type="checkbox" checked={value.symbolsOnly} onChange={(e) => set({ symbolsOnly: e.target.checked })} />
        Only candidates named by symbols
      </label>
    </fieldset>
  );
}

export function UnstripSettingsFields({
  value,
  onChange,
}: {
  value: UnstripSettings;
  onChange: (v: UnstripSettings) => void;
}) {
  const set = (change: Partial<UnstripSettings>) => onChange({ ...value, ...change });
  return (
    <fieldset className="match-settings">
      <legend>Auto-unstrip</legend>
      <p className="muted">
        Candidates from the min similarity above. AI unstrip has fixed thresholds (50% similarity, 90% confidence).
      </p>
      <Percent
        label="Min confidence %"
        value={value.confidenceThreshold}
        onChange={(v) => set({ confidenceThreshold: v })}
      />
      <Count
        label="Min group size"
        min={1}
        max={20}
        value={value.minGroupSize}
        onChange={(v) => set({ minGroupSize: v })}
      />
    </fieldset>
  );
}
