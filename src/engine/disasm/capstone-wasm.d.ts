// capstone-wasm 1.0.3 ships its types as dist/index.d.ts, which NodeNext resolution does not pair with the
// ESM entry (dist/index.mjs). The part of its API this engine uses:
declare module 'capstone-wasm' {
  /** Instantiates the WebAssembly module once per process; Emscripten fills `module` with its exports. */
  export function loadCapstone(module?: Record<string, unknown>): Promise<void>;
}
