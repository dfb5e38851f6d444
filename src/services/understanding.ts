// What an analysis learned beyond code, as the API serves it: capabilities (per analysis and per function),
// capability tags with maliciousness scores, the SBOM (reference shape and CycloneDX), vulnerabilities of the
// identified libraries from the local OSV database (read at request time, so an import applies at once),
// the PDF report, and the overview that serves the report's findings as data.
import type { Static } from '@sinclair/typebox';
import type { BlobStore } from '../blobs/index.js';
import type {
  AnalysisOverview,
  ResultDocument,
  SectionEntropyMeter,
  SectionRecord,
  AnalysisTagItem,
  CapabilityReport,
  Capabilities,
  Sbom,
  Vulnerabilities,
} from '../contracts/index.js';
import { decodeAnalysisConfig, readResultDocument } from '../contracts/index.js';
import { analysisVerdict, capabilityWeight, functionTags, type FunctionTags } from '../engine/capabilities/index.js';
import type { CallGraphNode, ReportInput } from '../engine/report/index.js';
import { cycloneDx, matchVulnerabilities, parseOsvRecord, type VulnerabilityReport } from '../engine/sbom/index.js';
import { errors } from '../shared/errors.js';
import type { AnalysisWithOwner, Store } from '../store/index.js';
import { visibleAnalysis, visibleFunction, type Caller } from './access.js';
import { capabilityRows, formatLine, hashRows, keyFacts, mitigations, tacticStrip } from './report-input.js';

/** The report's work off the event loop (worker threads): measuring the sample's sections, laying out pages. */
export interface ReportWorkers {
  sectionEntropy: SectionEntropyMeter;
  renderPdf: (input: ReportInput) => Promise<Uint8Array>;
}

const configOf = (a: AnalysisWithOwner) => decodeAnalysisConfig(a.config).analysis_config;

const FILE = '<file>';
/** What a function without a name in the store is called, as everywhere else. */
const unnamed = (vaddr: number) => `sub_${vaddr.toString(16)}`;
const accessOf = (s: SectionRecord) => `${s.read ? 'r' : '-'}${s.write ? 'w' : '-'}${s.exec ? 'x' : '-'}`;
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
          function_name: vaddr === null ? FILE : (functions.get(vaddr)?.name ?? unnamed(vaddr)),
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
    private readonly blobs: BlobStore,
    private readonly workers: ReportWorkers,
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
          function_name: vaddr === null ? FILE : (names.get(vaddr)?.name ?? unnamed(vaddr)),
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

  /**
   * The identified libraries' known vulnerabilities, or null when the vulnerability database is empty: then
   * nothing was checked, which an empty list would misreport as a clean bill.
   */
  private async vulnerabilityReports(result: ResultDocument): Promise<VulnerabilityReport[] | null> {
    if ((await this.store.vulnerabilities.count()) === 0) return null;
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
    const vulnerabilities = await this.vulnerabilityReports(result);
    if (!vulnerabilities) throw errors.noVulnerabilityData();
    return { vulnerabilities };
  }

  async pdf(caller: Caller, id: number): Promise<{ filename: string; bytes: Uint8Array }> {
    const { analysis, result } = await this.completed(caller, id);
    const functions = await this.store.functions.map(id);
    const byVaddr = new Map(functions.map((f) => [f.vaddr, f]));
    const name = (vaddr: number) => byVaddr.get(vaddr)?.name ?? unnamed(vaddr);
    const report = result.capabilities;
    const capabilities = report ? capabilityRows(report, name) : null;
    const weights = new Map(capabilities?.map((c) => [c.name, c.weight]));
    const strongestFirst = (tags: string[]) =>
      [...tags].sort((a, b) => (weights.get(b) ?? 0) - (weights.get(a) ?? 0) || a.localeCompare(b));
    const tags = report ? functionTags(report) : [];
    const suspicious = report
      ? tags
          .filter((t) => t.vaddr !== null)
          .slice(0, SUSPICIOUS_SHOWN)
          .map((t) => ({ name: name(t.vaddr!), vaddr: t.vaddr!, score: t.score, tags: strongestFirst(t.tags) }))
      : null;
    const top = suspicious?.[0];
    const input: ReportInput = {
      binaryName: analysis.binary_name,
      analysisId: id,
      generatedAt: new Date(analysis.updated_at).toISOString(),
      subtitle: `${formatLine(result)} · ${result.size.toLocaleString('en-US')} bytes`,
      verdict: report ? analysisVerdict(report) : null,
      tactics: capabilities ? tacticStrip(capabilities) : null,
      facts: keyFacts(result, functions.filter((f) => !/^sub_[0-9a-f]+$/.test(f.name)).length, analysis.model_name),
      ...hashRows(result),
      security: mitigations(result.identity.format, result.security),
      sections: await this.sectionEntropies(analysis.sha256, result),
      fileEntropy: result.entropy,
      fileSize: result.size,
      capabilities,
      libraries:
        result.sbom?.map((c) => ({ name: c.name, version: c.version ?? 'unknown', linkage: c.linkage })) ?? null,
      vulnerabilities: await this.reportVulnerabilities(analysis, result),
      suspicious,
      callGraph: top ? await this.callGraph(byVaddr.get(top.vaddr), tags) : null,
    };
    return { filename: `binlens-report-${id}.pdf`, bytes: await this.workers.renderPdf(input) };
  }

  /** As GET …/vulnerabilities answers: not generated, not checked (no database), or what was found. */
  private async reportVulnerabilities(
    analysis: AnalysisWithOwner,
    result: ResultDocument,
  ): Promise<ReportInput['vulnerabilities']> {
    if (!configOf(analysis).generate_cves || !result.sbom) return null;
    const found = await this.vulnerabilityReports(result);
    if (!found) return 'no database';
    return found.map((v) => ({
      cve: v.cve_number,
      product: v.product,
      version: v.version,
      severity: v.severity,
      score: v.score,
      summary: v.remarks,
    }));
  }

  /** Each section with bytes in the file, by offset, with their entropy; null once the sample is gone. */
  private async measuredSections(sha256: string, result: ResultDocument) {
    if (!(await this.blobs.has(sha256))) return null;
    const sections = result.sections
      .filter((s) => s.fileSize > 0 && s.fileOffset + s.fileSize <= result.size)
      .sort((a, b) => a.fileOffset - b.fileOffset || a.name.localeCompare(b.name));
    const entropies = await this.workers.sectionEntropy({
      path: await this.blobs.localPath(sha256),
      ranges: sections.map((s) => ({ offset: s.fileOffset, size: s.fileSize })),
    });
    return sections.map((section, i) => ({ section, entropy: entropies[i]! }));
  }

  private async sectionEntropies(sha256: string, result: ResultDocument): Promise<ReportInput['sections']> {
    const measured = await this.measuredSections(sha256, result);
    return (
      measured?.map(({ section: s, entropy }) => ({ name: s.name, size: s.fileSize, entropy, access: accessOf(s) })) ??
      null
    );
  }

  /**
   * What the PDF report says, as data (GET …/overview): the verdict and the capabilities, null when they were
   * not generated; the format's mitigations; every section, with its entropy where it has bytes in the file.
   */
  async overview(caller: Caller, id: number): Promise<Static<typeof AnalysisOverview>> {
    const { analysis, result } = await this.completed(caller, id);
    const report = result.capabilities;
    const names = report ? await this.functionsByVaddr(id) : new Map<number, { id: number; name: string }>();
    const capabilities = report
      ? capabilityRows(report, (vaddr) => ({
          function_id: names.get(vaddr)?.id ?? null,
          name: names.get(vaddr)?.name ?? unnamed(vaddr),
          vaddr,
        }))
      : null;
    const verdict = report ? analysisVerdict(report) : null;
    const entropies = new Map(
      (await this.measuredSections(analysis.sha256, result))?.map(({ section, entropy }) => [section, entropy]),
    );
    return {
      verdict:
        verdict && capabilities
          ? {
              score: Math.round(verdict.score * 100),
              level: verdict.level,
              label: verdict.label,
              tactics: tacticStrip(capabilities),
            }
          : null,
      security: mitigations(result.identity.format, result.security).map(({ feature, value, meaning, tone }) => ({
        feature,
        state: value,
        meaning,
        tone,
      })),
      sections: result.sections.map((s) => ({
        name: s.name,
        vaddr: s.vaddr,
        size: s.size,
        file_offset: s.fileOffset,
        file_size: s.fileSize,
        access: accessOf(s),
        entropy: entropies.get(s) ?? null,
      })),
      imports: result.imports.map(({ name, library }) => ({ name, library })),
      exports: result.exports.map(({ name, vaddr }) => ({ name, vaddr })),
      capabilities: capabilities?.map(({ name, ...row }) => ({ rule: name, ...row })) ?? null,
    };
  }

  /** The function's distinct callers and callees, in call order, each with its own score. */
  private async callGraph(
    f: { id: number; vaddr: number; name: string } | undefined,
    tags: FunctionTags[],
  ): Promise<ReportInput['callGraph']> {
    if (!f) return null;
    const scores = new Map(tags.map((t) => [t.vaddr, t.score]));
    const node = (name: string, vaddr: number | null, external: boolean): CallGraphNode => ({
      name,
      vaddr,
      score: vaddr === null ? 0 : (scores.get(vaddr) ?? 0),
      external,
    });
    const distinct = <T>(rows: T[], key: (r: T) => string | number) => {
      const seen = new Set<string | number>();
      return rows.filter((r) => !seen.has(key(r)) && seen.add(key(r)));
    };
    const [callers, callees] = await Promise.all([
      this.store.functions.callers(f.id),
      this.store.functions.callees(f.id),
    ]);
    const direct = callees.filter((c) => c.callee_vaddr >= 0);
    return {
      focus: node(f.name, f.vaddr, false),
      callers: distinct(callers, (c) => c.caller_id).map((c) => node(c.caller_name, c.caller_vaddr, false)),
      callees: distinct(direct, (c) => c.callee_vaddr).map((c) =>
        c.is_external ? node(c.recorded_name, null, true) : node(c.callee_name, c.callee_vaddr, false),
      ),
      indirectCalls: callees.length - direct.length,
    };
  }
}
