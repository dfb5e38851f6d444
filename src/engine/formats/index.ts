// Container-format parsers (ELF, PE, Mach-O) that identify a binary from a prefix of its bytes.
// Pure and bounded against hostile input; may import only src/contracts and src/shared.
export { identify, rawIdentity } from './identify.js';
export { parsePe } from './pe/index.js';
export { peLoadPlan, type PeLoadPlan } from './pe/load-plan.js';
export { parseMachO } from './macho/index.js';
export { parseRaw } from './raw.js';
export type { RawTarget } from './raw.js';
export { parseElf } from './elf/index.js';
