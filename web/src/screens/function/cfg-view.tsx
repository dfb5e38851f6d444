// The control-flow graph drawn as SVG in the shared pan/zoom frame: blocks as boxes of instructions, edges
// coloured by kind. A click on a block selects it; selected blocks and instructions are marked.
import { memo, useId, useMemo } from 'react';
import { PanZoom } from '../../components/pan-zoom';
import { CFG_TEXT, EDGE_KINDS, type CfgLayout, type CfgNode, type EdgeKind } from './cfg-layout';
import { addressOf } from './listing';

const KIND_NAMES: Record<EdgeKind, string> = {
  true: 'Branch taken',
  false: 'Branch not taken',
  switch: 'Switch case',
  unconditional: 'Jump',
  fallthrough: 'Fall-through',
};

export function CfgLegend() {
  return (
    <ul className="cfg-legend" aria-label="Edge colours">
      {EDGE_KINDS.map((k) => (
        <li key={k}>
          <svg width="26" height="10" aria-hidden="true">
            <line x1="1" y1="5" x2="25" y2="5" className={`cfg-edge ${k}`} />
          </svg>
          {KIND_NAMES[k]}
        </li>
      ))}
    </ul>
  );
}

/** Below this scale the instructions are unreadable, and drawing thousands of them makes panning crawl. */
const LEGIBLE_SCALE = 0.3;
/** A big graph opens at its entry, readable, rather than whole and illegible. */
const MIN_FIT_SCALE = 0.5;

const Block = memo(function Block({
  node,
  selected,
  legible,
  marked,
  onSelect,
}: {
  node: CfgNode;
  selected: boolean;
  legible: boolean;
  /** Indexes of the block's lines to mark, comma-joined so that memo compares a string. */
  marked: string;
  onSelect: (block: number) => void;
}) {
  const { lineHeight, padX, padY, fontSize } = CFG_TEXT;
  const lines = marked ? marked.split(',').map(Number) : [];
  return (
    <g
      data-block-id={node.id}
      data-interactive
      className={selected ? 'cfg-block selected' : 'cfg-block'}
      transform={`translate(${node.x} ${node.y})`}
      onClick={() => onSelect(node.id)}
    >
      <rect width={node.width} height={node.height} rx={3} />
      {lines.map((i) => (
        <rect
          key={i}
          className="cfg-line-mark"
          x={1}
          y={padY + i * lineHeight}
          width={node.width - 2}
          height={lineHeight}
        />
      ))}
      {legible && (
        <text fontSize={fontSize}>
          {node.lines.map((l, i) => (
            <tspan key={i} x={padX} y={padY + i * lineHeight + fontSize}>
              {l}
            </tspan>
          ))}
        </text>
      )}
    </g>
  );
});

export function CfgView({
  layout,
  selectedBlocks,
  selectedAddrs,
  onSelectBlock,
  label,
}: {
  layout: CfgLayout;
  selectedBlocks: ReadonlySet<number>;
  selectedAddrs: ReadonlySet<number>;
  onSelectBlock: (block: number) => void;
  label: string;
}) {
  const markerId = useId().replace(/[^\w-]/g, '');
  const lineAddrs = useMemo(() => layout.nodes.map((n) => n.lines.map(addressOf)), [layout]);
  const points = useMemo(() => layout.edges.map((e) => e.points.map((p) => `${p.x},${p.y}`).join(' ')), [layout]);
  // The selected blocks' bounding box: a selection made in a listing or the C is brought into view.
  const focus = useMemo(() => {
    const chosen = layout.nodes.filter((n) => selectedBlocks.has(n.id));
    if (chosen.length === 0) return null;
    const x = Math.min(...chosen.map((n) => n.x));
    const y = Math.min(...chosen.map((n) => n.y));
    return {
      x,
      y,
      width: Math.max(...chosen.map((n) => n.x + n.width)) - x,
      height: Math.max(...chosen.map((n) => n.y + n.height)) - y,
    };
  }, [layout, selectedBlocks]);
  return (
    <div data-testid="cfg" className="cfg">
      <PanZoom
        width={layout.width}
        height={layout.height}
        label={label}
        // A small graph gets a small frame; a big one the most that leaves the listings beside it in view.
        viewportHeight={Math.min(620, Math.max(240, layout.height + 40))}
        minScale={MIN_FIT_SCALE}
        focus={focus}
      >
        {(scale) => (
          <>
            <defs>
              {EDGE_KINDS.map((k) => (
                <marker
                  key={k}
                  id={`${markerId}-${k}`}
                  viewBox="0 0 10 10"
                  refX="9"
                  refY="5"
                  markerUnits="userSpaceOnUse"
                  markerWidth="10"
                  markerHeight="10"
                  orient="auto"
                >
                  <path d="M0,0 L10,5 L0,10 z" className={`cfg-arrow ${k}`} />
                </marker>
              ))}
            </defs>
            <g>
              {layout.edges.map((e, i) => (
                <polyline
                  key={i}
                  points={points[i]}
                  className={
                    selectedBlocks.has(e.from) || selectedBlocks.has(e.to)
                      ? `cfg-edge ${e.kind} near`
                      : `cfg-edge ${e.kind}`
                  }
                  markerEnd={`url(#${markerId}-${e.kind})`}
                />
              ))}
              {layout.nodes.map((n, i) => (
                <Block
                  key={n.id}
                  node={n}
                  selected={selectedBlocks.has(n.id)}
                  legible={scale >= LEGIBLE_SCALE}
                  marked={
                    selectedBlocks.has(n.id)
                      ? lineAddrs[i]!.flatMap((a, j) => (a !== null && selectedAddrs.has(a) ? [j] : [])).join(',')
                      : ''
                  }
                  onSelect={onSelectBlock}
                />
              ))}
            </g>
          </>
        )}
      </PanZoom>
    </div>
  );
}
