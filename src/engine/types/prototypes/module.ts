// One module of the prototype database: the C declarations of one library (or of the types several share),
// the platforms it applies to, and the library a binary imports its functions from.
import type { DataModel } from '../c-parse/index.js';

export type Platform = 'linux' | 'windows' | 'macos';

export const PLATFORMS: readonly Platform[] = ['linux', 'windows', 'macos'];

/** The data models each platform's binaries use (macOS ILP32: the old i386 binaries). */
export const PLATFORM_DATA_MODELS: Record<Platform, readonly DataModel[]> = {
  linux: ['LP64', 'ILP32'],
  windows: ['LLP64', 'ILP32'],
  macos: ['LP64', 'ILP32'],
};

export interface PrototypeModule {
  /** Names the module in parse errors (`kernel32:12:5: …`). */
  name: string;
  /** The library as binaries name it, per platform where it differs (`libc.so.6`, `msvcrt.dll`). */
  library: string | Partial<Record<Platform, string>>;
  platforms: readonly Platform[];
  /**
   * C declarations. A function of the data model where a layout or a name differs between models
   * (WSADATA's member order, glibc's `struct stat`), written out once per case rather than with a preprocessor.
   */
  declarations: string | ((model: DataModel) => string);
}

export function libraryName(m: PrototypeModule, platform: Platform): string {
  return typeof m.library === 'string' ? m.library : (m.library[platform] ?? m.name);
}
