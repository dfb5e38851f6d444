// Upload by drag and drop (or the file picker) with upload progress, the analysis options of
// POST /v2/analyses, then straight to the new analysis, whose page follows it as it runs.
import { useMutation } from '@tanstack/react-query';
import { useState, type DragEvent, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { api, unwrap } from '../../api/client';
import { uploadFile } from '../../api/upload';
import { ErrorNote } from '../../components/status';

interface Options {
  scope: 'PRIVATE' | 'PUBLIC';
  tags: string;
  capabilities: boolean;
  sbom: boolean;
  cves: boolean;
  sandbox: boolean;
  args: string;
}

const DEFAULTS: Options = {
  scope: 'PRIVATE',
  tags: '',
  capabilities: true,
  sbom: true,
  cves: false,
  sandbox: false,
  args: '',
};

export function UploadForm() {
  const [file, setFile] = useState<File | null>(null);
  const [debugFile, setDebugFile] = useState<File | null>(null);
  const [options, setOptions] = useState(DEFAULTS);
  const [over, setOver] = useState(false);
  const [sent, setSent] = useState<number | null>(null);
  const [, navigate] = useLocation();
  const set = <K extends keyof Options>(k: K, v: Options[K]) => setOptions((o) => ({ ...o, [k]: v }));

  const create = useMutation({
    mutationFn: async (binary: File) => {
      setSent(0);
      const debugHash = debugFile ? await uploadFile(debugFile, 'DEBUG', () => {}) : null;
      const sha = await uploadFile(binary, 'BINARY', setSent);
      return unwrap(
        api.POST('/v2/analyses', {
          body: {
            filename: binary.name,
            sha_256_hash: sha,
            analysis_scope: options.scope,
            debug_hash: debugHash,
            tags: options.tags
              .split(',')
              .map((t) => t.trim())
              .filter(Boolean)
              .map((name) => ({ name })),
            analysis_config: {
              generate_capabilities: options.capabilities,
              generate_sbom: options.sbom,
              generate_cves: options.cves,
              sandbox_config: { enabled: options.sandbox, command_line_args: options.args },
            },
          },
        }),
      );
    },
    onSuccess: (created) => navigate(`/analyses/${created.analysis_id}`),
    onSettled: () => setSent(null),
  });

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const dropped = e.dataTransfer.files[0];
    if (dropped) setFile(dropped);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (file) create.mutate(file);
  };

  return (
    <form className="card upload" onSubmit={submit} aria-label="New analysis">
      <h2>New analysis</h2>
      <div
        className={over ? 'dropzone over' : 'dropzone'}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid="dropzone"
      >
        <p>{file ? `${file.name} (${file.size.toLocaleString()} bytes)` : 'Drop an executable here, or choose one:'}</p>
        <label>
          Binary <input type="file" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
      </div>
      <fieldset className="options">
        <legend>Options</legend>
        <label>
          Scope{' '}
          <select value={options.scope} onChange={(e) => set('scope', e.target.value as Options['scope'])}>
            <option value="PRIVATE">Private</option>
            <option value="PUBLIC">Public</option>
          </select>
        </label>
        <label>
          Tags{' '}
          <input value={options.tags} placeholder="comma, separated" onChange={(e) => set('tags', e.target.value)} />
        </label>
        <label>
          <input
            type="checkbox"
            checked={options.capabilities}
            onChange={(e) => set('capabilities', e.target.checked)}
          />{' '}
          Capabilities
        </label>
        <label>
          <input type="checkbox" checked={options.sbom} onChange={(e) => set('sbom', e.target.checked)} /> SBOM
        </label>
        <label>
          <input type="checkbox" checked={options.cves} onChange={(e) => set('cves', e.target.checked)} /> CVEs
        </label>
        <label>
          <input type="checkbox" checked={options.sandbox} onChange={(e) => set('sandbox', e.target.checked)} /> Dynamic
          execution
        </label>
        {options.sandbox && (
          <label>
            Command line <input value={options.args} onChange={(e) => set('args', e.target.value)} />
          </label>
        )}
        <label>
          Debug file (PDB or DWARF) <input type="file" onChange={(e) => setDebugFile(e.target.files?.[0] ?? null)} />
        </label>
      </fieldset>
      {sent !== null && (
        <label>
          Uploading… {Math.round(sent * 100)} %
          <progress max={1} value={sent} />
        </label>
      )}
      {create.error && <ErrorNote error={create.error} />}
      <button type="submit" disabled={!file || create.isPending}>
        {create.isPending ? 'Uploading…' : 'Upload and analyse'}
      </button>
    </form>
  );
}
