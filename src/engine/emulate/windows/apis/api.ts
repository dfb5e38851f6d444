// What an API handler is: its stack argument count (what a 32-bit stdcall return pops), and what it does
// with the arguments of one call; or, for a variable a DLL exports (msvcrt's _iob), where it lives.
import type { WinSystem } from '../system.js';

export interface ApiCall {
  sys: WinSystem;
  /** The name the program imported. */
  name: string;
  arg(i: number): bigint;
  /** Argument `i` as a 32-bit unsigned and signed integer (DWORD, BOOL, int). */
  u32(i: number): number;
  i32(i: number): number;
  /** The string argument `i` points at (UTF-16 when `wide`), null for a null pointer. */
  str(i: number, wide?: boolean): string | null;
}

/** A result: a value for the return register (negative numbers are sign-extended), or a BOOL. */
export type ApiResult = bigint | number | boolean;

export interface Api {
  args: number;
  /** cdecl: the caller pops its arguments (the C library), not the API (stdcall). */
  cdecl?: boolean;
  run(c: ApiCall): ApiResult;
}

export interface DataExport {
  /** The variable's address, made on the first import of it. */
  data(sys: WinSystem): bigint;
}

export type ApiTable = Record<string, Api | DataExport>;

export const stdcall = (args: number, run: (c: ApiCall) => ApiResult): Api => ({ args, run });
export const cdecl = (args: number, run: (c: ApiCall) => ApiResult): Api => ({ args, cdecl: true, run });

/** The ANSI and UTF-16 forms of an API (`name`A and `name`W): `run` reads and writes strings in the one called. */
export function ansiAndWide(name: string, args: number, run: (c: ApiCall, wide: boolean) => ApiResult): ApiTable {
  return { [`${name}A`]: stdcall(args, (c) => run(c, false)), [`${name}W`]: stdcall(args, (c) => run(c, true)) };
}

/** Windows error codes (winerror.h) the handlers set. */
export const ERROR = {
  FILE_NOT_FOUND: 2,
  PATH_NOT_FOUND: 3,
  ACCESS_DENIED: 5,
  INVALID_HANDLE: 6,
  NOT_ENOUGH_MEMORY: 8,
  FILE_EXISTS: 80,
  INVALID_PARAMETER: 87,
  CALL_NOT_IMPLEMENTED: 120,
  INSUFFICIENT_BUFFER: 122,
  MOD_NOT_FOUND: 126,
  PROC_NOT_FOUND: 127,
  ALREADY_EXISTS: 183,
  MORE_DATA: 234,
  NO_MORE_ITEMS: 259,
};

/** Fails the call with `error` as the last error: the result the API documents for failure. */
export function fail(c: ApiCall, error: number, result: ApiResult = 0): ApiResult {
  c.sys.lastError = error;
  return result;
}

/** Writes `text` into a caller's buffer of `room` units, as the Get…Path APIs do: its length, or the room needed. */
export function bufferResult(c: ApiCall, at: bigint, room: number, text: string, wide: boolean): number {
  if (room <= text.length) return text.length + 1;
  return c.sys.writeString(at, text, wide);
}
