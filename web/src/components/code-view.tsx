// A listing of code lines (C or assembly), highlighted by highlight.js line by line, where a click selects
// a line and selected lines are marked: the function view keeps C and disassembly in step through it.
import hljs from 'highlight.js/lib/core';
import armasm from 'highlight.js/lib/languages/armasm';
import c from 'highlight.js/lib/languages/c';
import mipsasm from 'highlight.js/lib/languages/mipsasm';
import x86asm from 'highlight.js/lib/languages/x86asm';
import { useEffect, useMemo, useRef } from 'react';

hljs.registerLanguage('c', c);
hljs.registerLanguage('x86asm', x86asm);
hljs.registerLanguage('armasm', armasm);
hljs.registerLanguage('mipsasm', mipsasm);

export type CodeLanguage = 'c' | 'x86asm' | 'armasm' | 'mipsasm';

/** The assembly language highlight.js knows for an architecture name of the API (x86_64, arm64, mips…). */
export function asmLanguage(architecture: string | null | undefined): CodeLanguage {
  const a = (architecture ?? '').toLowerCase();
  if (a.includes('arm') || a.includes('aarch')) return 'armasm';
  if (a.includes('mips')) return 'mipsasm';
  return 'x86asm';
}

export interface CodeViewProps {
  lines: readonly string[];
  language: CodeLanguage;
  /** Text in a gutter before each line (addresses), or nothing. */
  gutter?: readonly string[];
  selected?: ReadonlySet<number>;
  /** Extra classes of some lines (a diff's changed lines): marked without scrolling to them. */
  marks?: ReadonlyMap<number, string>;
  onSelect?: (line: number) => void;
  label: string;
}

export function CodeView({ lines, language, gutter, selected, marks, onSelect, label }: CodeViewProps) {
  // Highlighted per line so a line stays one element to select and scroll to; a C construct spanning lines
  // (a block comment) loses its colour past the first line, which decompiled C rarely has.
  const html = useMemo(
    () => lines.map((l) => hljs.highlight(l, { language, ignoreIllegals: true }).value),
    [lines, language],
  );
  const box = useRef<HTMLPreElement>(null);
  const first = selected && selected.size > 0 ? Math.min(...selected) : -1;
  useEffect(() => {
    if (first < 0) return;
    box.current?.querySelector(`[data-line="${first}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [first]);
  return (
    <pre className="code" aria-label={label} ref={box} tabIndex={0}>
      {html.map((h, i) => (
        <span
          key={i}
          data-line={i}
          className={`line${selected?.has(i) ? ' selected' : ''}${marks?.has(i) ? ` ${marks.get(i)}` : ''}`}
          onClick={onSelect && (() => onSelect(i))}
        >
          {gutter && <span className="gutter">{gutter[i] ?? ''}</span>}
          <span dangerouslySetInnerHTML={{ __html: h }} />
        </span>
      ))}
    </pre>
  );
}
