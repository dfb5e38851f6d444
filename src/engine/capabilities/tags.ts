// Function tags with a maliciousness score, from capability matches (docs/tags.md). A capability weighs
// what it usually means in malware, by its namespace; a function's score combines the weights of its
// capabilities as independent evidence: 1 − Π(1 − w). Reading a file is 0.05; injecting into another
// process is 0.9; both together 0.905.
import type { CapabilityReport } from '../../contracts/understanding.js';

/** First pattern matching the namespace (or rule name) wins; ordered most specific first. */
export const CAPABILITY_WEIGHTS: [RegExp, number][] = [
  [/inject|hollow|remote.?thread|shellcode/, 0.9],
  [/ransom|wipe|destroy/, 0.9],
  [/anti-(analysis|debug|vm|sandbox|emulation|av)|evasion|debugger/, 0.6],
  [/persistence|autorun|run.?key|service.*create|cron|systemd|scheduled/, 0.7],
  [/credential|shadow|password|keylog|screenshot|clipboard/, 0.6],
  [/obfuscat|stack.?string|xor.?(encod|decod)|encoded/, 0.4],
  [/(c2|command.?and.?control|beacon)/, 0.6],
  [/communication|socket|http|dns|network|internet/, 0.3],
  [/runtime.?link|loadlibrary|getprocaddress|dlopen|dlsym|peb/, 0.3],
  [/registry/, 0.3],
  [/process\/(create|terminate|execution)|execut(e|ion)|spawn|fork|shell|daemon/, 0.3],
  [/crypt|cipher|hash|aes|rc4|sha|md5|crc/, 0.2],
  [/encod|base64/, 0.2],
  [/discovery|hostname|username|system.?info|enumerat/, 0.2],
  [/file.?system|file/, 0.05],
];
const DEFAULT_WEIGHT = 0.1;

export function capabilityWeight(namespace: string | null, rule: string): number {
  const text = `${namespace ?? ''} ${rule}`.toLowerCase();
  return CAPABILITY_WEIGHTS.find(([re]) => re.test(text))?.[1] ?? DEFAULT_WEIGHT;
}

export const combineScores = (weights: number[]): number => 1 - weights.reduce((p, w) => p * (1 - w), 1);

export interface FunctionTags {
  /** Function start address; null for what the file as a whole shows (file-scope rules). */
  vaddr: number | null;
  tags: string[];
  score: number;
}

/** Per function (and the file), its capability tags and score, highest score first. */
export function functionTags(report: CapabilityReport): FunctionTags[] {
  const byFunction = new Map<number | null, { tags: Set<string>; weights: number[] }>();
  for (const m of report.matches) {
    const w = capabilityWeight(m.namespace, m.rule);
    for (const vaddr of m.scope === 'file' ? [null] : m.functions) {
      let entry = byFunction.get(vaddr);
      if (!entry) byFunction.set(vaddr, (entry = { tags: new Set(), weights: [] }));
      if (entry.tags.has(m.rule)) continue;
      entry.tags.add(m.rule);
      entry.weights.push(w);
    }
  }
  return [...byFunction]
    .map(([vaddr, e]) => ({
      vaddr,
      tags: [...e.tags].sort(),
      score: Math.round(combineScores(e.weights) * 1000) / 1000,
    }))
    .sort((a, b) => b.score - a.score || (a.vaddr ?? -1) - (b.vaddr ?? -1));
}
