// The built-in prototype database: known library functions (C, POSIX, glibc, macOS, Win32, the C++ runtime)
// as C declarations, one module per library, parsed once per platform and data model on first use. Type
// recovery seeds argument and return types from these. Pure data and the parser; may import ../ctype.js
// and ../c-parse/.
import { CDeclarationError, createScope, parseDeclarations, type DataModel } from '../c-parse/index.js';
import type { CType, Prototype, TypeTable } from '../ctype.js';
import { modulesFor } from './catalog.js';
import { libraryName, type Platform } from './module.js';
import { candidateNames } from './symbol-names.js';

export { PLATFORMS, PLATFORM_DATA_MODELS, type Platform, type PrototypeModule } from './module.js';
export { MODULES, modulesFor } from './catalog.js';
export { candidateNames } from './symbol-names.js';

export interface KnownPrototype {
  name: string;
  prototype: Prototype;
  /**
   * The declaration says stdcall (WINAPI, NTAPI, CALLBACK): the callee pops its arguments on i386. Other
   * ABIs have one convention, so callers read this only for 32-bit x86.
   */
  stdcall: boolean;
  /** As binaries name it: `kernel32.dll`, `libc.so.6`. */
  library: string;
  noReturn?: boolean;
}

/** Shared by every caller of `libraryPrototypes`: read-only by convention, like the types it hands out. */
export interface PrototypeDatabase {
  readonly platform: Platform;
  readonly dataModel: DataModel;
  /** The prototype of a function by its C name or its symbol (decorated, versioned, `__imp_`, Mach-O `_`). */
  find(name: string): KnownPrototype | null;
  /** Every function, in module order. */
  readonly prototypes: readonly KnownPrototype[];
  /** Definitions of the structures, unions and enums the prototypes refer to. */
  readonly types: TypeTable;
  readonly typedefs: ReadonlyMap<string, CType>;
}

/** Parses every module of `platform` for `dataModel`. Throws a CDeclarationError on a broken declaration. */
export function buildPrototypeDatabase(platform: Platform, dataModel: DataModel): PrototypeDatabase {
  const scope = createScope(dataModel);
  const byName = new Map<string, KnownPrototype>();
  const where = new Map<string, string>();
  for (const m of modulesFor(platform)) {
    const text = typeof m.declarations === 'string' ? m.declarations : m.declarations(dataModel);
    const library = libraryName(m, platform);
    for (const f of parseDeclarations(text, scope, m.name)) {
      const earlier = where.get(f.name);
      if (earlier)
        throw new CDeclarationError(m.name, f.line, 1, `${f.name} is already declared at ${earlier}`, f.name);
      where.set(f.name, `${m.name}:${f.line}`);
      const known: KnownPrototype = { name: f.name, prototype: f.prototype, stdcall: f.stdcall, library };
      if (f.noReturn) known.noReturn = true;
      byName.set(f.name, known);
    }
  }
  return {
    platform,
    dataModel,
    find(name) {
      for (const candidate of candidateNames(name, platform)) {
        const hit = byName.get(candidate);
        if (hit) return hit;
      }
      return null;
    },
    prototypes: [...byName.values()],
    types: scope.types,
    typedefs: scope.typedefs,
  };
}

const CACHE = new Map<string, PrototypeDatabase>();

/** The database for `platform` and `dataModel`, parsed on the first call and shared afterwards. */
export function libraryPrototypes(platform: Platform, dataModel: DataModel): PrototypeDatabase {
  const key = `${platform}/${dataModel}`;
  let db = CACHE.get(key);
  if (!db) CACHE.set(key, (db = buildPrototypeDatabase(platform, dataModel)));
  return db;
}
