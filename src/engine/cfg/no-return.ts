// Calls that never return: what follows them is not part of the caller's flow (often another function).

const NAMES = [
  'exit',
  '_exit',
  '_Exit',
  'quick_exit',
  'abort',
  'pthread_exit',
  'thrd_exit',
  '__stack_chk_fail',
  '__stack_chk_fail_local',
  '__assert_fail',
  '__assert_perror_fail',
  '__assert',
  '__fortify_fail',
  '__chk_fail',
  '__libc_fatal',
  'longjmp',
  '_longjmp',
  'siglongjmp',
  '__longjmp_chk',
  'err',
  'errx',
  'verr',
  'verrx',
  '__cxa_throw',
  '__cxa_rethrow',
  '__cxa_bad_cast',
  '__cxa_bad_typeid',
  '__cxa_throw_bad_array_new_length',
  '_Unwind_Resume',
  '_ZSt9terminatev',
  '__cxa_pure_virtual',
  '__ubsan_handle_builtin_unreachable',
  'ExitProcess',
  'ExitThread',
  'FatalExit',
  'FatalAppExitA',
  'FatalAppExitW',
  '_exit',
  '_cexit',
  '__report_gsfailure',
  '_invalid_parameter_noinfo_noreturn',
  '__fastfail',
  'RtlExitUserProcess',
  'RtlExitUserThread',
  '_assert',
  '_wassert',
  '__assert_func',
  '__stack_chk_fail@plt',
];

const SET = new Set(NAMES);

/** Import or symbol names (versioned `name@GLIBC_2.2.5` forms included) that do not return. */
export function isNoReturnName(name: string): boolean {
  if (SET.has(name)) return true;
  const at = name.indexOf('@');
  return at > 0 && SET.has(name.slice(0, at));
}
