// What signature recovery produces for one function: its parameters (where each is passed, width, coarse
// class, the structure it points to, a library's declared type), result, frame and globals. Its own
// module so the passes that refine signatures (structures.ts, param-slots.ts) and signatures.ts share it.
import type { CoarseClass, CType } from './ctype.js';
import type { GlobalAccess } from './globals.js';

export type ParamLocation = { kind: 'int' | 'float'; index: number } | { kind: 'stack'; offset: number };

export interface RecoveredParam {
  location: ParamLocation;
  /** Bytes. */
  width: number;
  cls: CoarseClass;
  /**
   * A pointer's target as a structure: the fields accessed through it, here and in every function the same
   * structure reaches (offset, widest access).
   */
  fields?: { offset: number; size: number }[];
  /** The structure's identity, shared by every parameter pointing to it: its first function and parameter. */
  structure?: { fn: number; param: number };
  /** The type a library function it is passed to declares for it (strlen's argument: `const char *`). */
  declared?: CType;
}

export interface RecoveredSignature {
  convention: string;
  params: RecoveredParam[];
  /** `declared`: the library function's return type, when it returns what one returns (`return malloc(n);`). */
  returns: { cls: CoarseClass; width: number; declared?: CType };
  variadic: boolean;
  /** The callee removes its stack arguments (stdcall). */
  calleePops: number;
  /**
   * Its frame's variables: offset from the entry stack pointer and size in bytes; `declared` where the
   * variable is loaded and passed to a library function's parameter (its declared type).
   */
  frame: { offset: number; size: number; declared?: CType }[];
  /** Memory it accesses at constant addresses. */
  globals: GlobalAccess[];
}
