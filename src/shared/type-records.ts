// Recovered data types of one binary, as one shape from the engine (types stage) to the store and the API:
// types spelled as standard C text, so the records are what the wire's FunctionInfoOutput carries.

/** Where a record's types came from; `user`: the analysis's owner wrote them (an edit or a copied signature). */
export type TypeSource = 'dwarf' | 'library' | 'recovered' | 'user';

export interface TypedValue {
  name: string;
  /** C spelling: `char *`, `int32_t`, `struct stream *`. */
  type: string;
  size: number;
  /** Arguments: their position (0-based); stack variables: offset from the stack pointer on entry. */
  offset: number;
}

/** A structure, union, enumeration or typedef a function's types refer to. */
export type TypeDependencyRecord =
  | { kind: 'struct' | 'union'; name: string; size: number | null; members: TypedValue[] }
  | { kind: 'enum'; name: string; members: Record<string, number> }
  | { kind: 'typedef'; name: string; type: string }
  | { kind: 'global'; name: string; type: string; size: number; vaddr: number };

export interface FunctionTypesRecord {
  vaddr: number;
  size: number;
  name: string;
  /** The whole declaration: `int32_t f(char *a1, int32_t a2)`. */
  declaration: string;
  returnType: string;
  args: TypedValue[];
  variadic: boolean;
  /** The calling convention it was read with (`sysv`, `ms_abi`, `cdecl`, `stdcall`, …). */
  convention: string;
  stackVars: TypedValue[];
  deps: TypeDependencyRecord[];
  source: TypeSource;
}
