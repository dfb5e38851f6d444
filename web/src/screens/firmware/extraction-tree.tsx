// The extraction as a table whose first column is a tree: chunks of the image by offset, the files each
// gave, the chunks found in those, and the ranges nothing recognised, chunks and ranges with their entropy.
// Each container's name is a button (aria-expanded) that folds it, so the tree is keyboard operable and its
// columns align.
import { useState } from 'react';
import { Entropy } from './entropy';
import { AnalysisLink } from './executables';
import { DownloadButton } from '../../components/download-button';
import { bytes, count, hex } from '../../components/format';
import { filePath, isExecutable, type TreeNode } from './model';

/** Containers with more entries than this start folded: a root file system lists thousands of files. */
const FOLDED_ABOVE = 50;

interface Row {
  node: TreeNode;
  depth: number;
}

const childrenOf = (n: TreeNode): TreeNode[] => (n.kind === 'unknown' ? [] : n.children);

function containers(nodes: TreeNode[]): TreeNode[] {
  return nodes.flatMap((n) => {
    const children = childrenOf(n);
    return children.length > 0 ? [n, ...containers(children)] : [];
  });
}

function visibleRows(nodes: TreeNode[], folded: Set<string>, depth = 0): Row[] {
  return nodes.flatMap((node) => [
    { node, depth },
    ...(folded.has(node.key) ? [] : visibleRows(childrenOf(node), folded, depth + 1)),
  ]);
}

export function ExtractionTree({ task, nodes }: { task: string; nodes: TreeNode[] }) {
  const [folded, setFolded] = useState(
    () =>
      new Set(
        containers(nodes)
          .filter((n) => childrenOf(n).length > FOLDED_ABOVE)
          .map((n) => n.key),
      ),
  );
  const toggle = (key: string) =>
    setFolded((f) => {
      const next = new Set(f);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  if (nodes.length === 0) return <p className="muted">Nothing was recognised in the image.</p>;
  return (
    <>
      <div className="toolbar">
        <button type="button" className="secondary" onClick={() => setFolded(new Set())}>
          Expand all
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => setFolded(new Set(containers(nodes).map((n) => n.key)))}
        >
          Collapse all
        </button>
      </div>
      <table className="grid fw-tree">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Offset</th>
            <th scope="col">Size</th>
            <th scope="col">Type</th>
            <th scope="col">Entropy</th>
            <th scope="col">Analysis or file</th>
          </tr>
        </thead>
        <tbody>
          {visibleRows(nodes, folded).map(({ node, depth }) => (
            <tr key={node.key} className={`fw-${node.kind}`}>
              <td style={{ paddingLeft: 8 + depth * 18 }}>
                <NodeName node={node} open={!folded.has(node.key)} onToggle={() => toggle(node.key)} />
              </td>
              <NodeCells task={task} node={node} />
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function label(node: TreeNode): string {
  if (node.kind === 'chunk') return node.format;
  if (node.kind === 'file') return node.name;
  return 'Unrecognised data';
}

function NodeName({ node, open, onToggle }: { node: TreeNode; open: boolean; onToggle: () => void }) {
  const children = childrenOf(node).length;
  if (children === 0)
    return <span className={node.kind === 'unknown' ? 'fw-leaf muted' : 'fw-leaf'}>{label(node)}</span>;
  return (
    <button type="button" className="fw-toggle" aria-expanded={open} onClick={onToggle}>
      <span aria-hidden="true" className="fw-arrow">
        {open ? '▾' : '▸'}
      </span>
      {label(node)}
      <span className="muted"> ({count(children, node.kind === 'chunk' ? 'file' : 'chunk')})</span>
    </button>
  );
}

function NodeCells({ task, node }: { task: string; node: TreeNode }) {
  if (node.kind === 'file') {
    const info = node.info;
    return (
      <>
        <td />
        <td>{info ? bytes(info.size) : ''}</td>
        <td>{info?.type}</td>
        <td />
        <td>
          {info && (
            <div className="fw-actions">
              {isExecutable(info) && <AnalysisLink analysisId={info.analysis_id} name={node.name} />}
              <DownloadButton path={filePath(task, info.sha256)} name={node.name} />
            </div>
          )}
        </td>
      </>
    );
  }
  return (
    <>
      <td className="mono">{hex(node.offset)}</td>
      <td>{bytes(node.size)}</td>
      <td>{node.kind === 'chunk' ? (node.description ?? node.format) : ''}</td>
      <td>{node.entropy !== null && <Entropy value={node.entropy} />}</td>
      <td />
    </>
  );
}
