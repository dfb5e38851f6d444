// Wire shapes of what an analysis learns beyond code (reference: Capabilities, FunctionCapabilityResponse,
// SBOM, Vulnerabilities), plus the CycloneDX export, which the reference does not have.
import { Type } from '@sinclair/typebox';
import { Envelope, Nullable } from './envelope.js';
import { Enum } from './enums.js';

export const Capability = Type.Object({
  function_name: Type.String(),
  function_vaddr: Type.Integer({ format: 'int64' }),
  capabilities: Type.Array(Type.String()),
});
export const Capabilities = Type.Object({ capabilities: Type.Array(Capability) });
export const FunctionCapabilityResponse = Type.Object({ capabilities: Type.Array(Type.String()) });

export const SbomPackage = Type.Object({ name: Type.String(), version: Type.String() });
export const Sbom = Type.Object({ packages: Type.Array(SbomPackage), imported_libs: Type.Array(Type.String()) });

export const Severity = Enum(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'UNKNOWN'] as const);
export const Vulnerability = Type.Object({
  vendor: Type.String(),
  product: Type.String(),
  version: Type.String(),
  cve_number: Type.String(),
  severity: Severity,
  source: Type.String(),
  cvss_version: Type.String(),
  cvss_vector: Type.String(),
  remarks: Type.String(),
  score: Type.Number(),
  is_unknown: Type.Optional(Type.Boolean({ default: false })),
});
export const Vulnerabilities = Type.Object({ vulnerabilities: Type.Array(Vulnerability) });

/** CycloneDX 1.5 JSON (https://cyclonedx.org/docs/1.5/json/): passed through as the engine writes it. */
export const CycloneDxDocument = Type.Object(
  { bomFormat: Type.Literal('CycloneDX'), specVersion: Type.Literal('1.5') },
  { additionalProperties: true },
);

export const CapabilityEnvelopes = {
  capabilities: Envelope(Nullable(Capabilities)),
  functionCapabilities: Envelope(Nullable(FunctionCapabilityResponse)),
  sbom: Envelope(Nullable(Type.Array(Sbom))),
  vulnerabilities: Envelope(Nullable(Vulnerabilities)),
};
