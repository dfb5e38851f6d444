// What an analysis learned beyond code, as the API serves it: capabilities (per analysis and per function),
// capability tags with maliciousness scores, the SBOM (reference shape and CycloneDX), vulnerabilities of the
// identified libraries from the local OSV database (read at request time, so an import applies at once),
// and the PDF report.
import type { Static } from '@sinclair/typebox';
import type {
  ResultDocument,
  AnalysisTagItem,
  CapabilityReport,
  Capabilities,
  Sbom,
  Vulnerabilities,
} from '../contracts/index.js';
import { decodeAnalysisConfig, readResultDocument } from '../contracts/index.js';
import { capabilityWeight, functionTags } from '../engine/capabilities/index.js';
import type { ReportInput } from '../engine/report/index.js';
import { cycloneDx, matchVulnerabilities, parseOsvRecord, type VulnerabilityReport } from '../engine/sbom/index.js';
import { errors } from '../shared/errors.js';
import type { AnalysisWithOwner, Store } from '../store/index.js';
import { visibleAnalysis, visibleFunction, type Caller } from './access.js';

/** Renders a report off the event loop (a worker thread). */
export type PdfRenderer = (input: ReportInput) => Promise<Uint8Array>;

const configOf = (a: AnalysisWithOwner) => decodeAnalysisConfig(a.config).analysis_config;

const FILE = '<file>';
/** The PDF lists this many of the highest-scoring functions. */
const SUSPICIOUS_SHOWN = 25;

/** Capability tags of an analysis: one per capability, scored by what it means, with its functions' scores. */
export function capabilityTagItems(
  report: CapabilityReport,
  functions: Map<number, { id: number; name: string }>,
): Static<typeof AnalysisTagItem>[] {
  const scores = new Map(functionTags(report).map((t) => [t.vaddr, t.score]));
  return report.matches
    .map((m) => {
      const where = m.scope === 'file' ? [null] : m.functions;
      return {
        name: m.rule,
        origin: 'CAPABILITY',
        collection_id: null,
        score: capabilityWeight(m.namespace, m.rule),
        functions: where.map((vaddr) => ({
          function_id: vaddr === null ? null : (functions.get(vaddr)?.id ?? null),
          function_name: vaddr === null ? FILE : (functions.get(vaddr)?.name ?? `sub_${vaddr.toString(16)}`),
          function_vaddr: vaddr,
          score: scores.get(vaddr) ?? 0,
        })),
      };
    })
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
}

export class UnderstandingService {
  constructor(
    private readonly store: Store,
    private readonly renderPdf: PdfRenderer,
  ) {}

  /** The result of a visible, completed analysis. */
  private async completed(caller: Caller, id: number) {
    const analysis = await visibleAnalysis(this.store, caller, id);
    return { analysis, result: await this.resultOf(analysis) };
  }

  private async resultOf(analysis: AnalysisWithOwner): Promise<ResultDocument> {
    const result =
      analysis.status === 'Complete' ? readResultDocument(await this.store.events.result(analysis.id)) : undefined;
    if (!result) throw errors.resultNotReady(analysis.id, analysis.status);
    return result;
  }

  private async functionsByVaddr(analysisId: number) {
    return new Map((await this.store.functions.map(analysisId)).map((f) => [f.vaddr, { id: f.id, name: f.name }]));
  }

  private static report(id: number, result: ResultDocument): CapabilityReport {
    if (!result.capabilities) throw errors.notGenerated('Capabilities', id, 'generate_capabilities');
    return result.capabilities;
  }

  async capabilities(caller: Caller, id: number): Promise<Static<typeof Capabilities>> {
    const { result } = await this.completed(caller, id);
    const report = UnderstandingService.report(id, result);
    const names = await this.functionsByVaddr(id);
    const byFunction = new Map<number | null, Set<string>>();
    for (const m of report.matches)
      for (const vaddr of m.scope === 'file' ? [null] : m.functions) {
        const set = byFunction.get(vaddr) ?? new Set<string>();
        byFunction.set(vaddr, set.add(m.rule));
      }
    return {
      capabilities: [...byFunction]
        .sort(([a], [b]) => (a ?? -1) - (b ?? -1))
        .map(([vaddr, rules]) => ({
          // File-scope capabilities belong to no function: listed under `<file>` at address 0.
          function_name: vaddr === null ? FILE : (names.get(vaddr)?.name ?? `sub_${vaddr.toString(16)}`),
          function_vaddr: vaddr ?? 0,
          capabilities: [...rules].sort(),
        })),
    };
  }

  async functionCapabilities(caller: Caller, functionId: number) {
    const { f, analysis } = await visibleFunction(this.store, caller, functionId);
    const result = await this.resultOf(analysis);
    const report = UnderstandingService.report(analysis.id, result);
    return { capabilities: report.matches.filter((m) => m.functions.includes(f.vaddr)).map((m) => m.rule) };
  }

  /** Capability tags for GET …/tags: none when capabilities were not generated or are not ready. */
  async tagItems(analysis: AnalysisWithOwner): Promise<Static<typeof AnalysisTagItem>[]> {
    if (analysis.status !== 'Complete') return [];
    const report = readResultDocument(await this.store.events.result(analysis.id))?.capabilities;
    return report ? capabilityTagItems(report, await this.functionsByVaddr(analysis.id)) : [];
  }

  private async libraries(caller: Caller, id: number) {
    const { analysis, result } = await this.completed(caller, id);
    if (!result.sbom) throw errors.notGenerated('SBOM entries', id, 'generate_sbom');
    return { analysis, result, sbom: result.sbom };
  }

  async sbom(caller: Caller, id: number): Promise<Static<typeof Sbom>[]> {
    const { result, sbom } = await this.libraries(caller, id);
    return [
      {
        packages: sbom.map((c) => ({ name: c.name, version: c.version ?? 'unknown' })),
        imported_libs: [...result.libraries],
      },
    ];
  }

  async cycloneDx(caller: Caller, id: number) {
    const { analysis, result, sbom } = await this.libraries(caller, id);
    return cycloneDx(
      {
        name: analysis.binary_name,
        sha256: result.hashes.sha256,
        analysisId: id,
        timestamp: new Date(analysis.updated_at).toISOString(),
        toolVersion: process.env.npm_package_version ?? '0.1.0',
      },
      sbom,
    );
  }

  private async vulnerabilityReports(result: ResultDocument): Promise<VulnerabilityReport[]> {
    if (!result.sbom) return [];
    const docs = await this.store.vulnerabilities.forPackages([
      ...new Set(result.sbom.map((c) => c.name.toLowerCase())),
    ]);
    return matchVulnerabilities(
      docs.map((d) => parseOsvRecord(JSON.parse(d))),
      result.sbom,
    );
  }

  async vulnerabilities(caller: Caller, id: number): Promise<Static<typeof Vulnerabilities>> {
    const { analysis, result } = await this.completed(caller, id);
    if (!configOf(analysis).generate_cves) throw errors.notGenerated('Vulnerabilities', id, 'generate_cves');
    // No records at all is not "no vulnerabilities": say so, or an empty list reads as a clean bill.
    if ((await this.store.vulnerabilities.count()) === 0) throw errors.noVulnerabilityData();
    return { vulnerabilities: await this.vulnerabilityReports(result) };
  }

  async pdf(caller: Caller, id: number): Promise<{ filename: string; bytes: Uint8Array }> {
    const { analysis, result } = await this.completed(caller, id);
    const names = await this.functionsByVaddr(id);
    const name = (vaddr: number) => names.get(vaddr)?.name ?? `sub_${vaddr.toString(16)}`;
    const report = result.capabilities;
    const id_ = result.identity;
    const input: ReportInput = {
      binaryName: analysis.binary_name,
      analysisId: id,
      generatedAt: new Date(analysis.updated_at).toISOString(),
      summary: [
        ['Binary', analysis.binary_name],
        ['Size', `${result.size} bytes`],
        [
          'Format',
          `${id_.format.toUpperCase()} ${id_.bits ?? ''}-bit ${id_.architecture} ${id_.binaryType} (${id_.platform})`,
        ],
        ['Language', result.language],
        ['Functions', String(result.functionCount)],
        ['Stripped', result.stripped ? 'yes' : 'no'],
        ['Entropy', result.entropy.toFixed(3)],
        ['Model', analysis.model_name],
      ],
      hashes: [
        ['SHA-256', result.hashes.sha256],
        ['SHA-1', result.hashes.sha1],
        ['MD5', result.hashes.md5],
        ['TLSH', result.hashes.tlsh ?? ''],
        ['ssdeep', result.hashes.ssdeep ?? ''],
      ],
      security: [
        ...Object.entries(result.security).map(([k, v]): [string, string] => [k, String(v)]),
        ['Needed libraries', result.libraries.join(', ')],
      ],
      capabilities: report
        ? report.matches.map((m) => ({
            name: m.rule,
            namespace: m.namespace ?? '',
            attack: m.attack,
            functions: m.functions.map(name),
          }))
        : null,
      libraries:
        result.sbom?.map((c) => ({ name: c.name, version: c.version ?? 'unknown', linkage: c.linkage })) ?? null,
      vulnerabilities: result.sbom
        ? (await this.vulnerabilityReports(result)).map((v) => ({
            cve: v.cve_number,
            product: v.product,
            version: v.version,
            severity: v.severity,
            score: v.score,
            summary: v.remarks,
          }))
        : null,
      suspicious: report
        ? functionTags(report)
            .filter((t) => t.vaddr !== null)
            .slice(0, SUSPICIOUS_SHOWN)
            .map((t) => ({ name: name(t.vaddr!), vaddr: t.vaddr!, score: t.score, tags: t.tags }))
        : null,
    };
    return { filename: `binlens-report-${id}.pdf`, bytes: await this.renderPdf(input) };
  }
}
