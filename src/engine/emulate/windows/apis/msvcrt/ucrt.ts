// The Universal CRT (ucrtbase.dll and its api-ms-win-crt-*.dll forwarders) and vcruntime140, what MSVC-built
// programs import: msvcrt's functions under the same names, and the UCRT's own start-up, exit and stdio
// entry points (every printf goes through __stdio_common_vfprintf with a va_list).
import { cdecl, type ApiTable } from '../api.js';
import { crtOf, listArgs } from './crt.js';
import { RUNTIME } from './runtime.js';
import { format, printInto, put, STDIO, stream } from './stdio.js';

/** Arguments before __stdio_common_*'s own: the 64-bit options word takes two slots on x86. */
const options = (pointer: number) => (pointer === 8 ? 1 : 2);

export const UCRT: ApiTable = {
  ...RUNTIME,
  ...STDIO,
  __acrt_iob_func: cdecl(1, (c) => crtOf(c.sys).iob + BigInt(c.u32(0) * (c.sys.abi.pointer === 8 ? 48 : 32))),
  // (options, FILE*, format, locale, va_list)
  __stdio_common_vfprintf: cdecl(6, (c) => {
    const o = options(c.sys.abi.pointer);
    return put(c, stream(c, o), format(c.sys, c.arg(o + 1), listArgs(c.sys, c.arg(o + 3))));
  }),
  // (options, buffer, count, format, locale, va_list): the length, or -1 when it did not fit.
  __stdio_common_vsprintf: cdecl(7, (c) => {
    const o = options(c.sys.abi.pointer);
    const text = format(c.sys, c.arg(o + 2), listArgs(c.sys, c.arg(o + 4)));
    return c.arg(o) === 0n ? text.length : printInto(c, c.arg(o), Number(c.arg(o + 1)), text);
  }),
  _get_initial_narrow_environment: cdecl(0, (c) => crtOf(c.sys).environment()),
  _initialize_narrow_environment: cdecl(0, () => 0),
  _configure_narrow_argv: cdecl(1, () => 0),
  __p___argc: cdecl(0, (c) => crtOf(c.sys).variable('__argc', 4, (at) => c.sys.writeInt(at, c.sys.argv.length, 4))),
  __p___argv: cdecl(0, (c) => {
    const crt = crtOf(c.sys);
    return crt.variable('__argv', c.sys.abi.pointer, (at) =>
      c.sys.writePointer(at, crt.pointerArray(c.sys.argv.map((a) => crt.constant(a)))),
    );
  }),
  _set_app_type: cdecl(1, () => 0),
  _seh_filter_exe: cdecl(2, () => 0),
  _set_fmode: cdecl(1, () => 0),
  _configthreadlocale: cdecl(1, () => 0),
  _controlfp_s: cdecl(3, () => 0),
  _set_new_mode: cdecl(1, () => 0),
  _crt_atexit: RUNTIME.atexit!,
  _register_onexit_function: cdecl(2, (c) => {
    c.sys.atExit.push(c.arg(1));
    return 0;
  }),
  _initialize_onexit_table: cdecl(1, () => 0),
  _execute_onexit_table: cdecl(1, () => 0),
  _register_thread_local_exe_atexit_callback: cdecl(1, () => 0),
  _c_exit: cdecl(0, () => 0),
  terminate: RUNTIME.abort!,
  _invalid_parameter_noinfo: RUNTIME.abort!,
  // vcruntime140: what the compiler's own code calls.
  __std_type_info_destroy_list: cdecl(1, () => 0),
  _except_handler4_common: cdecl(6, () => 1),
  __current_exception: cdecl(0, (c) => crtOf(c.sys).variable('__current_exception', c.sys.abi.pointer)),
  __current_exception_context: cdecl(0, (c) => crtOf(c.sys).variable('__current_exception_context', c.sys.abi.pointer)),
  _CxxThrowException: cdecl(2, (c) => {
    c.sys.stop({ reason: 'fault', detail: 'C++ exception thrown (unwinding is not emulated)' });
    return 0;
  }),
  strstr: cdecl(2, (c) => {
    const i = (c.str(0) ?? '').indexOf(c.str(1) ?? '');
    return i < 0 ? 0 : c.arg(0) + BigInt(i);
  }),
};
