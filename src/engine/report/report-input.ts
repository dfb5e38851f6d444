// What the PDF report shows, gathered by the caller: plain data, already chosen for the binary's format.
import type { Verdict } from '../capabilities/verdict.js';

export type Row = [label: string, value: string];

/** How a value reads: good (green), bad (red), warn (amber) or neutral. */
export type Tone = 'good' | 'bad' | 'warn' | 'neutral';

export interface CallGraphNode {
  name: string;
  /** null for an import, whose address is a slot rather than code. */
  vaddr: number | null;
  /** The function's maliciousness score (0 for imports and untagged functions). */
  score: number;
  external: boolean;
}

export interface ReportInput {
  binaryName: string;
  analysisId: number;
  /** ISO 8601; also the PDF's creation date, so the same input gives the same bytes. */
  generatedAt: string;
  /** One line under the title: format, architecture, platform, size. */
  subtitle: string;
  /** null: capabilities were not generated (analysis_config), so there is nothing to judge by. */
  verdict: Verdict | null;
  /** Every Enterprise tactic in kill-chain order, then any other the rules name; null with `verdict`. */
  tactics: { tactic: string; capabilities: number; weight: number }[] | null;
  /** Key facts that apply to the format. */
  facts: Row[];
  /** Digests that identify the file (page 1). */
  hashes: Row[];
  /** TLSH, ssdeep and the like, for finding relatives (after the capabilities). */
  similarityHashes: Row[];
  /** Only the mitigations the format has. */
  security: { feature: string; value: string; tone: Tone; meaning: string }[];
  /** Sections with bytes in the file, by offset; null when the sample is no longer stored. */
  sections: { name: string; size: number; entropy: number; access: string }[] | null;
  fileEntropy: number;
  fileSize: number;
  /** null: not generated for this analysis (analysis_config), which the report says. */
  capabilities:
    | {
        name: string;
        namespace: string;
        weight: number;
        attack: { tactic: string; technique: string; id: string | null }[];
        functions: string[];
      }[]
    | null;
  libraries: { name: string; version: string; linkage: string }[] | null;
  /**
   * null: not generated (analysis_config.generate_cves); 'no database': nothing was checked, the local
   * vulnerability database being empty (an empty list would read as a clean bill).
   */
  vulnerabilities:
    | {
        cve: string;
        product: string;
        version: string;
        severity: string;
        score: number;
        summary: string;
      }[]
    | 'no database'
    | null;
  /** Highest score first. */
  suspicious: { name: string; vaddr: number; score: number; tags: string[] }[] | null;
  /** Callers and callees of the most suspicious function; null when there is none. */
  callGraph: {
    focus: CallGraphNode;
    callers: CallGraphNode[];
    callees: CallGraphNode[];
    /** Calls through a register or memory, whose target is not known statically. */
    indirectCalls: number;
  } | null;
}
