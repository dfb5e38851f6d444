// CycloneDX 1.5 JSON for one analysed binary: the binary is the metadata component, each identified
// library a component it depends on, with purl and CPE.
import type { LibraryComponent } from './identify-libraries.js';

export interface SbomSubject {
  name: string;
  sha256: string;
  /** Serial number source: the same analysis always gives the same document. */
  analysisId: number;
  /** ISO 8601. */
  timestamp: string;
  toolVersion: string;
}

/** A deterministic RFC 4122 version-4-shaped UUID from the binary's hash and the analysis id. */
function serialNumber(s: SbomSubject): string {
  const hex = (s.sha256 + s.analysisId.toString(16).padStart(8, '0')).slice(-32).padStart(32, '0');
  const v = `${hex.slice(0, 12)}4${hex.slice(13, 16)}${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 32)}`;
  return `urn:uuid:${v.slice(0, 8)}-${v.slice(8, 12)}-${v.slice(12, 16)}-${v.slice(16, 20)}-${v.slice(20, 32)}`;
}

const ref = (c: LibraryComponent) => `${c.name}@${c.version ?? 'unknown'}:${c.linkage}`;

export function cycloneDx(subject: SbomSubject, components: LibraryComponent[]) {
  const root = `binary:${subject.sha256}`;
  return {
    bomFormat: 'CycloneDX',
    specVersion: '1.5',
    serialNumber: serialNumber(subject),
    version: 1,
    metadata: {
      timestamp: subject.timestamp,
      tools: { components: [{ type: 'application', name: 'binlens', version: subject.toolVersion }] },
      component: {
        type: 'application',
        'bom-ref': root,
        name: subject.name,
        hashes: [{ alg: 'SHA-256', content: subject.sha256 }],
      },
    },
    components: components.map((c) => ({
      type: 'library',
      'bom-ref': ref(c),
      name: c.name,
      ...(c.version ? { version: c.version } : {}),
      purl: c.purl,
      cpe: c.cpe,
      scope: 'required',
      properties: [
        { name: 'binlens:linkage', value: c.linkage },
        ...c.evidence.map((e) => ({ name: 'binlens:evidence', value: e })),
      ],
    })),
    dependencies: [
      { ref: root, dependsOn: components.map(ref) },
      ...components.map((c) => ({ ref: ref(c), dependsOn: [] })),
    ],
  };
}
