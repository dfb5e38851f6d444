// Texts of the AnalysesResultsMetadata and AnalysesXRefs operations: what a finished analysis found.
import { HIDDEN_IS_MISSING, NOT_READY, type OperationDoc } from './operation-doc.js';

/** The flag a result needs, and the 409 without it. */
const needs = (what: string, flag: string) =>
  `${what} exist only for analyses created with \`analysis_config.${flag}\`: otherwise 409, naming the flag.`;

export const resultsDocs = {
  getTags: {
    summary: "List an analysis's tags",
    description: [
      "The analysis's own tags (origin `USER`) and, for an analysis created with",
      '`analysis_config.generate_capabilities` once it is `Complete`, one tag per capability found (origin',
      '`CAPABILITY`), highest score first.',
      '',
      '**Binlens extension:** a capability tag carries `score`, 0 to 1, how strongly the capability suggests',
      'malicious intent, and `functions`, where it was found, each with its own combined score (a file-wide',
      `capability is listed under \`<file>\`). A heuristic to order attention, not a verdict. ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
  },
  getAnalysisFunctionsPaginated: {
    summary: "List an analysis's functions",
    description: [
      'The functions found, by address: id, name, mangled name, where the name came from (`name_source_type`',
      'and `name_source`), address, size and whether debug information named it. Paged by `page` and',
      '`page_size` (1–1000, default 1000); `meta.pagination.has_next_page` says whether another page follows.',
      `Empty until the analysis is \`Complete\`. ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
  },
  getFunctionsList: {
    summary: "List an analysis's functions (deprecated)",
    description: [
      'The older form of `GET /v2/analyses/{analysis_id}/functions`, with filters: `search_term` (part of the',
      'name), `min_v_addr` and `max_v_addr`. Paged as it is.',
      '',
      '**Binlens extension:** with `include_embeddings` (default true) each function carries its similarity',
      `vector as \`embedding\` (1024 numbers); the reference has no field for it. ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
  },
  getCapabilities: {
    summary: 'List the capabilities found in an analysis',
    description: [
      'Per function (name and address), the capability rules it matched (capa-format rules: the shipped set',
      "and the operator's). Capabilities of the whole file are listed under `<file>` at address 0.",
      `${needs('They', 'generate_capabilities')} ${NOT_READY} ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
  },
  getSbom: {
    summary: "Get an analysis's software bill of materials",
    description: [
      'The libraries identified in the binary with their versions (`unknown` when a library is recognised',
      'without a version string), and the libraries it imports. For a CycloneDX document use',
      '`GET …/sbom/cyclonedx`.',
      `${needs('SBOM entries', 'generate_sbom')} (\`generate_cves\` implies it). ${NOT_READY}`,
      HIDDEN_IS_MISSING,
    ].join('\n'),
  },
  getSbomCycloneDx: {
    summary: 'Export the SBOM as CycloneDX 1.5',
    description: [
      '**Binlens extension** (the reference has no such operation): the SBOM of `GET …/sbom` as a CycloneDX',
      '1.5 JSON document (`application/vnd.cyclonedx+json`), each component with its purl and CPE, for',
      'dependency and vulnerability tools.',
      `${needs('SBOM entries', 'generate_sbom')} ${NOT_READY} ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
  },
  getVulnerabilities: {
    summary: "List known vulnerabilities of an analysis's libraries",
    description: [
      'Vulnerabilities (CVE, product, version, severity, score) of the libraries in the SBOM, matched when',
      "asked against the server's local database of OSV records, so an import applies without re-analysis.",
      'Binlens fetches nothing: an administrator loads records with `binlens vulns import <dir>`; while the',
      'database is empty the answer is 409, not an empty list that would read as "none known".',
      `${needs('Vulnerabilities', 'generate_cves')} ${NOT_READY} ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
  },
  getPdf: {
    summary: 'Download an analysis report as PDF',
    description: [
      'A PDF report (`application/pdf`, as the attachment `binlens-report-{analysis_id}.pdf`): summary,',
      'hashes, security properties and needed libraries, and, where they were generated, capabilities,',
      'libraries, vulnerabilities and the 25 highest-scoring functions.',
      `${NOT_READY} ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
  },
  getAnalysisOverview: {
    summary: 'Get the findings of an analysis at a glance',
    description: [
      '**Binlens extension** (the reference has no such operation): what the PDF report says, as data, for',
      'the web interface. `verdict`: the score (0–100) of the capabilities combined as independent evidence,',
      'its label and level, and how many capabilities map to each ATT&CK tactic (every Enterprise tactic, in',
      'kill-chain order). `security`: the mitigations the format has, each with its state and a tone (`good`,',
      '`bad`, `warn`, `neutral`). `sections`: every section with its access and, where it has bytes in the',
      'file, their entropy (bits per byte, 0–8; null once the sample is no longer stored). `imports` and',
      '`exports` as the binary lists them. `capabilities`: each rule matched, strongest first, with its',
      'namespace, scope, weight, parsed ATT&CK mappings, MBC mappings and the functions it was found in.',
      '`verdict` and `capabilities` are null for an analysis created without',
      `\`analysis_config.generate_capabilities\`. ${NOT_READY} ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
  },
  getXrefByVaddr: {
    summary: 'List cross-references at an address',
    description: [
      'References to the address (`xref_to_list`, each with where it comes from) and from it',
      '(`xref_from_list`, each with where it goes), addresses in hex; `is_call`, `is_data` and `is_string` say',
      `what kind. ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
  },
} satisfies Record<string, OperationDoc>;
