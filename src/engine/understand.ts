// After recovery: what the binary can do (capability rules over its extracted features) and which
// libraries it carries. Each part runs only when asked for (analysis_config.generate_capabilities /
// generate_sbom); the features are returned frozen so rules can re-match later without decoding.
import type { CapabilityMatch, CapabilityReport, LibraryRecord } from '../contracts/understanding.js';
import {
  capabilityFeatures,
  freezeFeatures,
  matchRules,
  type FrozenFeatures,
  type RuleSet,
} from './capabilities/index.js';
import type { FunctionGraph } from './cfg/index.js';
import type { Decoders } from './disasm/index.js';
import type { BinaryImage } from './formats/image.js';
import { identifyLibraries } from './sbom/index.js';
import type { FoundString } from './strings/index.js';

export interface UnderstandOptions {
  /** Compiled capability rules; null: capabilities are not generated. */
  rules: RuleSet | null;
  sbom: boolean;
}

export interface Understanding {
  capabilities: CapabilityReport | null;
  features: FrozenFeatures | null;
  libraries: LibraryRecord[] | null;
}

/** Function start containing each address, through the blocks (sorted by start) of the recovered graph. */
function functionOf(graph: FunctionGraph): (address: number) => number | null {
  const order = [...graph.blocks.start.keys()].sort((a, b) => graph.blocks.start[a]! - graph.blocks.start[b]!);
  return (address) => {
    let lo = 0;
    let hi = order.length - 1;
    let hit = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (graph.blocks.start[order[mid]!]! <= address) {
        hit = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (hit < 0) return null;
    const b = order[hit]!;
    if (address >= graph.blocks.end[b]!) return null;
    return graph.functions[graph.blocks.func[b]!]?.start ?? null;
  };
}

export function capabilityReport(
  rules: RuleSet,
  features: ReturnType<typeof capabilityFeatures>,
  graph: FunctionGraph,
): CapabilityReport {
  const result = matchRules(rules, features);
  const containing = functionOf(graph);
  const matches: CapabilityMatch[] = [];
  for (const [name, addresses] of result.matches) {
    const rule = rules.reported.get(name);
    if (!rule) continue;
    const functions =
      rule.scope === 'file'
        ? []
        : [...new Set(addresses.map(containing).filter((f): f is number => f !== null))].sort((a, b) => a - b);
    matches.push({
      rule: rule.name,
      namespace: rule.namespace,
      scope: rule.scope,
      attack: rule.attack,
      mbc: rule.mbc,
      functions,
      addresses: [...addresses].sort((a, b) => a - b),
    });
  }
  matches.sort((a, b) => a.rule.localeCompare(b.rule));
  return { rules: rules.size, matches, evaluations: result.evaluations, naiveEvaluations: result.naiveEvaluations };
}

export function understandBinary(
  image: BinaryImage,
  graph: FunctionGraph,
  decoders: Decoders,
  strings: FoundString[],
  options: UnderstandOptions,
): Understanding {
  let capabilities: CapabilityReport | null = null;
  let features: FrozenFeatures | null = null;
  if (options.rules) {
    const extracted = capabilityFeatures(image, graph, decoders, strings);
    capabilities = capabilityReport(options.rules, extracted, graph);
    features = freezeFeatures(extracted);
  }
  const libraries = options.sbom ? identifyLibraries(strings, image.libraries) : null;
  return { capabilities, features, libraries };
}
