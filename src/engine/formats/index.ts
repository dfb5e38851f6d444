// Container-format parsers (ELF, PE, Mach-O) that identify a binary from a prefix of its bytes.
// Pure and bounded against hostile input; may import only src/contracts and src/shared.
export { identify, rawIdentity } from './identify.js';
