// Wire shape of GET /v2/analyses/{analysis_id}/overview, a Binlens extension: what the PDF report says about a
// binary (verdict, ATT&CK tactics, mitigations, sections with their entropy, capabilities), as data for the
// web interface, with the imports and exports the result holds.
import { Type } from '@sinclair/typebox';
import { Envelope, Nullable } from './envelope.js';
import { Enum } from './enums.js';

const weight = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

export const OverviewVerdict = Type.Object({
  score: Type.Integer({ minimum: 0, maximum: 100, description: 'The capabilities combined as independent evidence' }),
  level: Enum(['malicious', 'suspicious', 'low', 'none'] as const),
  label: Type.String({ description: 'Likely malicious, Suspicious, Low concern or No capability found' }),
  tactics: Type.Array(
    Type.Object({
      tactic: Type.String(),
      capabilities: Type.Integer({ minimum: 0, description: 'Capabilities mapped to the tactic' }),
      weight: weight('The weight of its strongest capability, 0..1 (0 with none)'),
    }),
    { description: 'Every Enterprise ATT&CK tactic in kill-chain order, then any other the rules name' },
  ),
});

export const OverviewMitigation = Type.Object({
  feature: Type.String({ description: 'NX, PIE, RELRO, DEP, ASLR, Stack canary …: only those of the format' }),
  state: Type.String({ description: 'Yes, No, Full, Partial …' }),
  meaning: Type.String(),
  tone: Enum(['good', 'bad', 'warn', 'neutral'] as const),
});

export const OverviewSection = Type.Object({
  name: Type.String(),
  vaddr: Type.Integer({ format: 'int64' }),
  size: Type.Integer({ format: 'int64', description: 'Size in memory' }),
  file_offset: Type.Integer({ format: 'int64' }),
  file_size: Type.Integer({ format: 'int64', description: 'Bytes in the file (0 for .bss and the like)' }),
  access: Type.String({ pattern: '^[r-][w-][x-]$', description: 'Read, write, execute, as `r-x`' }),
  entropy: Nullable(
    Type.Number({
      minimum: 0,
      maximum: 8,
      description:
        'Shannon entropy of its bytes in the file, bits per byte; null without bytes in the file or once the ' +
        'sample is no longer stored',
    }),
  ),
});

const FunctionPlace = Type.Object({
  function_id: Nullable(Type.Integer()),
  name: Type.String(),
  vaddr: Type.Integer({ format: 'int64' }),
});

export const OverviewCapability = Type.Object({
  rule: Type.String(),
  namespace: Type.String({ description: 'The rule’s namespace (`communication/socket/tcp`), empty for none' }),
  scope: Enum(['instruction', 'basic block', 'function', 'file'] as const),
  weight: weight('How strongly it suggests malicious intent, 0..1'),
  attack: Type.Array(
    Type.Object({
      tactic: Type.String(),
      technique: Type.String({ description: 'Technique and sub-technique names, joined by `: `' }),
      id: Nullable(Type.String({ description: 'T1055, T1547.001 …; null when the rule gives none' })),
    }),
  ),
  mbc: Type.Array(Type.String({ description: 'As the rule writes it: `Objective::Behavior [B0001.002]`' })),
  functions: Type.Array(FunctionPlace, { description: 'Where it was found; none for a file-scope rule' }),
});

export const AnalysisOverview = Type.Object({
  verdict: Nullable(OverviewVerdict),
  security: Type.Array(OverviewMitigation),
  sections: Type.Array(OverviewSection),
  imports: Type.Array(Type.Object({ name: Type.String(), library: Nullable(Type.String()) })),
  exports: Type.Array(Type.Object({ name: Type.String(), vaddr: Type.Integer({ format: 'int64' }) })),
  capabilities: Nullable(Type.Array(OverviewCapability, { description: 'Strongest first' })),
});

export const AnalysisOverviewEnvelope = Envelope(Nullable(AnalysisOverview));
