// C++ (Itanium) and Rust (legacy and v0) demangling, through gecko-profiler-demangle: the Rust
// `cpp_demangle` and `rustc-demangle` crates compiled to WebAssembly (the Firefox profiler's). Its package
// is built for bundlers, so its WebAssembly is read and instantiated here, by the hosts of the engine
// (analysis threads, `binlens analyze`), which hand the function to `analyze` (the engine reads no files).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

type WasmExports = Record<string, unknown>;

// The project compiles without DOM typings, where WebAssembly's live; only this much of it is used.
declare const WebAssembly: {
  instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: WasmExports } }>;
};

interface Glue {
  demangle_any(name: string): string;
  __wbg_set_wasm(exports: WasmExports): void;
}

let glue: Promise<Glue> | null = null;

async function load(): Promise<Glue> {
  const require = createRequire(import.meta.url);
  const dir = require.resolve('gecko-profiler-demangle/package.json').replace(/package\.json$/, '');
  const g = (await import(`${dir}index_bg.js`)) as Glue;
  const { instance } = await WebAssembly.instantiate(readFileSync(`${dir}index_bg.wasm`), { './index_bg.js': g });
  g.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as (() => void) | undefined)?.();
  return g;
}

/** The demangler of this thread, loaded once: may throw on names it cannot read (the engine guards it). */
export async function loadDemangler(): Promise<(name: string) => string> {
  glue ??= load();
  const g = await glue;
  return (name) => g.demangle_any(name);
}
