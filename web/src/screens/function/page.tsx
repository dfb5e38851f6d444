// One function: its name (renamable, with history), its control-flow graph, disassembly and decompiled C kept
// in step by one selection of instruction addresses, and what surrounds it (calls, strings, references,
// capabilities, data types). Works opened straight from a URL: everything starts from the function's id.
import { useCallback, useMemo, useState, type KeyboardEvent } from 'react';
import { Link } from 'wouter';
import { asmLanguage, CodeView } from '../../components/code-view';
import { ErrorNote, Loaded, Loading } from '../../components/status';
import { layoutCfg } from './cfg-layout';
import { CfgLegend, CfgView } from './cfg-view';
import { DataTypesPanel } from './data-types';
import { DecompiledPane } from './decompiled';
import { hex } from '../../components/format';
import { lineAddressesOf, listingOf, marks, NOTHING, type Selection } from './listing';
import { CallsPanel, CapabilitiesPanel, StringsPanel, XrefsPanel } from './panels';
import { useArchitecture, useBlocks, useDecompilation, useFunctionDetail, type FunctionDetail } from './queries';
import { NameHistory, RenameForm } from './rename';
import { Tabs } from './tabs';
import './function.css';

export function FunctionScreen({ id }: { id: number }) {
  const detail = useFunctionDetail(id);
  return (
    <section className="page wide function-screen">
      <Loaded query={detail} what="the function">
        {(f) => <FunctionView key={f.function_id} f={f} />}
      </Loaded>
    </section>
  );
}

/** Arrow keys on a listing move its selection one line; the listing keeps the focus. */
function stepper(count: number, current: ReadonlySet<number>, select: (line: number) => void) {
  return (e: KeyboardEvent) => {
    const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
    if (!step || count === 0 || !(e.target as Element).closest('pre.code')) return;
    e.preventDefault();
    const from = current.size > 0 ? (step > 0 ? Math.max(...current) : Math.min(...current)) : step > 0 ? -1 : count;
    select(Math.min(count - 1, Math.max(0, from + step)));
  };
}

function FunctionView({ f }: { f: FunctionDetail }) {
  const id = f.function_id;
  const architecture = useArchitecture(f.analysis_id);
  const blocks = useBlocks(id);
  const decompilation = useDecompilation(id);
  const [selection, setSelection] = useState<Selection>(NOTHING);

  const listing = useMemo(() => (blocks.data ? listingOf(blocks.data) : null), [blocks.data]);
  const layout = useMemo(() => (blocks.data ? layoutCfg(blocks.data) : null), [blocks.data]);
  const text = decompilation.data?.status === 'success' ? decompilation.data.decompilation : null;
  const cLines = useMemo(() => text?.split('\n') ?? [], [text]);
  const lineAddresses = useMemo(
    () => (text !== null && decompilation.data ? lineAddressesOf(decompilation.data) : null),
    [text, decompilation.data],
  );
  const marked = useMemo(
    () => (listing ? marks(selection, listing, lineAddresses) : null),
    [selection, listing, lineAddresses],
  );

  const selectAddrs = useCallback(
    (addrs: readonly number[]) => setSelection({ addrs: new Set(addrs), cLine: null }),
    [],
  );
  const selectBlock = useCallback(
    (block: number) => selectAddrs(listing?.blockAddrs.get(block) ?? []),
    [listing, selectAddrs],
  );
  const selectAsmLine = (i: number) => {
    const line = listing?.lines[i];
    if (!line) return;
    if (line.addr === null) selectBlock(line.block);
    else selectAddrs([line.addr]);
  };
  const selectCLine = (i: number) => setSelection({ addrs: new Set(lineAddresses?.[i] ?? []), cLine: i });

  const asmText = useMemo(() => listing?.lines.map((l) => l.text) ?? [], [listing]);
  const gutter = useMemo(() => listing?.lines.map((l) => (l.addr === null ? '' : hex(l.addr))) ?? [], [listing]);
  const xrefAddress = selection.addrs.size > 0 ? Math.min(...selection.addrs) : f.function_vaddr;

  return (
    <>
      <header className="function-header">
        <p className="muted">
          <Link href={`/analyses/${f.analysis_id}?view=functions`}>{f.binary_name}</Link> › function
        </p>
        <h1 className="function-name">{f.function_name}</h1>
        <dl className="facts">
          <dt>Address</dt>
          <dd className="mono">{hex(f.function_vaddr)}</dd>
          <dt>Size</dt>
          <dd>{f.function_size} bytes</dd>
          {f.function_name_mangled !== f.function_name && (
            <>
              <dt>Mangled name</dt>
              <dd className="mono">{f.function_name_mangled}</dd>
            </>
          )}
        </dl>
        <RenameForm key={f.function_name} id={id} analysisId={f.analysis_id} name={f.function_name} />
        <details className="name-history">
          <summary>Name history</summary>
          <NameHistory id={id} analysisId={f.analysis_id} />
        </details>
      </header>

      {blocks.error ? (
        <ErrorNote error={blocks.error} />
      ) : !listing || !layout || !marked ? (
        <Loading what="the blocks" />
      ) : layout.nodes.length === 0 ? (
        <p className="muted">No basic blocks were recovered for this function.</p>
      ) : (
        <div className="function-code">
          <section className="cfg-pane" aria-labelledby="cfg-heading">
            <div className="pane-head">
              <h2 id="cfg-heading">Control-flow graph</h2>
              <CfgLegend />
            </div>
            <CfgView
              layout={layout}
              selectedBlocks={marked.blocks}
              selectedAddrs={selection.addrs}
              onSelectBlock={selectBlock}
              label={`Control-flow graph of ${f.function_name}: ${layout.nodes.length} blocks, ${layout.edges.length} edges`}
            />
          </section>
          <div className="code-column">
            <section aria-labelledby="asm-heading">
              <h2 id="asm-heading">Disassembly</h2>
              <div
                data-testid="disassembly"
                className="pane"
                onKeyDown={stepper(asmText.length, marked.asm, selectAsmLine)}
              >
                <CodeView
                  lines={asmText}
                  gutter={gutter}
                  language={asmLanguage(architecture.data)}
                  selected={marked.asm}
                  onSelect={selectAsmLine}
                  label="Disassembly"
                />
              </div>
            </section>
            <section aria-labelledby="c-heading" onKeyDown={stepper(cLines.length, marked.c, selectCLine)}>
              <h2 id="c-heading">Decompiled C</h2>
              <DecompiledPane
                id={id}
                query={decompilation}
                lines={cLines}
                mapped={lineAddresses !== null}
                selected={marked.c}
                onSelect={selectCLine}
              />
            </section>
          </div>
        </div>
      )}

      <section aria-labelledby="context-heading" className="function-context">
        <h2 id="context-heading">Context</h2>
        <Tabs
          label="About this function"
          tabs={[
            { key: 'calls', label: 'Callers & callees', render: () => <CallsPanel id={id} /> },
            { key: 'strings', label: 'Strings', render: () => <StringsPanel id={id} /> },
            {
              key: 'xrefs',
              label: 'References',
              render: () => (
                <XrefsPanel
                  analysisId={f.analysis_id}
                  vaddr={xrefAddress}
                  chosen={selection.addrs.size > 0}
                  onSelect={(a) => selectAddrs([a])}
                  inFunction={(a) => listing?.blockOfAddr.has(a) ?? false}
                />
              ),
            },
            { key: 'capabilities', label: 'Capabilities', render: () => <CapabilitiesPanel id={id} /> },
            {
              key: 'types',
              label: 'Data types',
              render: () => <DataTypesPanel analysisId={f.analysis_id} id={id} />,
            },
          ]}
        />
      </section>
    </>
  );
}
