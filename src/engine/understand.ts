// After recovery: what the binary can do (capability rules over its extracted features), run only when
// asked for (analysis_config.generate_capabilities); the features are kept so rules can re-match later
// without decoding.
import type { CapabilityMatch, CapabilityReport, FrozenFeatures } from '../contracts/understanding.js';
import { capabilityFeatures, matchRules, type RuleSet } from './capabilities/index.js';
import type { FunctionGraph } from './cfg/index.js';
import type { Encodings } from './encodings/index.js';
import type { BinaryImage } from './formats/image.js';
import type { FoundString } from './strings/index.js';

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

export function capabilityReport(rules: RuleSet, features: FrozenFeatures, graph: FunctionGraph): CapabilityReport {
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

/** Capability features of the binary, and the rules matched over them. */
export function understandCapabilities(
  image: BinaryImage,
  graph: FunctionGraph,
  encodings: Encodings,
  strings: FoundString[],
  rules: RuleSet,
): { capabilities: CapabilityReport; features: FrozenFeatures } {
  const features = capabilityFeatures(image, graph, encodings, strings);
  return { capabilities: capabilityReport(rules, features, graph), features };
}
