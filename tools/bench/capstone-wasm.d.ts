// capstone-wasm's own API beside the Emscripten module the engine drives (src/engine/disasm/capstone-wasm.d.ts
// declares that part; this declaration merges with it): bench:disasm times the wrapper's disasm() too.
declare module 'capstone-wasm' {
  export class Capstone {
    constructor(arch: number, mode: number);
    disasm(data: Uint8Array, options?: { address?: number | bigint; count?: number }): { size: number }[];
  }
  export const Const: {
    CS_ARCH_ARM: number;
    CS_ARCH_ARM64: number;
    CS_MODE_ARM: number;
    CS_MODE_THUMB: number;
    CS_MODE_V8: number;
  };
}
