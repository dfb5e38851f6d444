// Software bill of materials: which libraries a binary carries (data-driven checkers over its strings and
// needed libraries), CycloneDX 1.5 export, and matching against OSV vulnerability records. Pure: the
// records are read by the caller. May import src/shared and src/contracts.
export * from './checkers.js';
export * from './identify-libraries.js';
export * from './cyclonedx.js';
export * from './version-compare.js';
export * from './cvss.js';
export * from './osv.js';
