// The Itanium C++ ABI runtime (libstdc++/libc++abi, and libgcc's unwinder): exceptions, guards for local
// statics, operator new/delete and libstdc++'s throw helpers, under their mangled names. Most never return,
// which is what a call-graph needs to know about them. `size_t` mangles as m (unsigned long, LP64), y
// (unsigned long long, LLP64: mingw) or j (unsigned int, ILP32).
import type { DataModel } from '../c-parse/index.js';
import type { PrototypeModule } from './module.js';

const SIZE_T_MANGLING: Record<DataModel, string> = { LP64: 'm', LLP64: 'y', ILP32: 'j' };

export const cxxRuntime: PrototypeModule = {
  name: 'cxx-runtime',
  library: { linux: 'libstdc++.so.6', windows: 'libstdc++-6.dll', macos: 'libc++abi.dylib' },
  platforms: ['linux', 'windows', 'macos'],
  declarations: (model) => {
    const m = SIZE_T_MANGLING[model];
    return `
struct _Unwind_Exception;
struct _Unwind_Context;

void *__cxa_allocate_exception(size_t thrown_size);
void __cxa_free_exception(void *thrown_exception);
_Noreturn void __cxa_throw(void *thrown_exception, void *tinfo, void (*dest)(void *));
void *__cxa_begin_catch(void *exception_object);
void __cxa_end_catch(void);
_Noreturn void __cxa_rethrow(void);
void *__cxa_get_exception_ptr(void *exception_object);
_Noreturn void __cxa_pure_virtual(void);
_Noreturn void __cxa_deleted_virtual(void);
_Noreturn void __cxa_bad_cast(void);
_Noreturn void __cxa_bad_typeid(void);
_Noreturn void __cxa_throw_bad_array_new_length(void);
_Noreturn void __cxa_call_unexpected(void *exception_object);
int __cxa_guard_acquire(int64_t *guard_object);
void __cxa_guard_release(int64_t *guard_object);
void __cxa_guard_abort(int64_t *guard_object);
char *__cxa_demangle(const char *mangled_name, char *output_buffer, size_t *length, int *status);
int __gxx_personality_v0(int version, int actions, uint64_t exception_class, struct _Unwind_Exception *ue,
  struct _Unwind_Context *context);
_Noreturn void _Unwind_Resume(struct _Unwind_Exception *exception_object);
int _Unwind_RaiseException(struct _Unwind_Exception *exception_object);
void _Unwind_DeleteException(struct _Unwind_Exception *exception_object);
uintptr_t _Unwind_GetIP(struct _Unwind_Context *context);
uintptr_t _Unwind_GetGR(struct _Unwind_Context *context, int index);
void _Unwind_SetGR(struct _Unwind_Context *context, int index, uintptr_t value);
void _Unwind_SetIP(struct _Unwind_Context *context, uintptr_t value);
uintptr_t _Unwind_GetLanguageSpecificData(struct _Unwind_Context *context);
uintptr_t _Unwind_GetRegionStart(struct _Unwind_Context *context);
int _Unwind_Backtrace(int (*trace)(struct _Unwind_Context *, void *), void *trace_argument);

void *_Znw${m}(size_t size);
void *_Zna${m}(size_t size);
void *_Znw${m}RKSt9nothrow_t(size_t size, const void *nothrow);
void *_Zna${m}RKSt9nothrow_t(size_t size, const void *nothrow);
void *_Znw${m}St11align_val_t(size_t size, size_t alignment);
void _ZdlPv(void *ptr);
void _ZdaPv(void *ptr);
void _ZdlPv${m}(void *ptr, size_t size);
void _ZdaPv${m}(void *ptr, size_t size);
void _ZdlPvSt11align_val_t(void *ptr, size_t alignment);
_Noreturn void _ZSt9terminatev(void);
_Noreturn void _ZSt17__throw_bad_allocv(void);
_Noreturn void _ZSt16__throw_bad_castv(void);
_Noreturn void _ZSt18__throw_bad_typeidv(void);
_Noreturn void _ZSt21__throw_bad_exceptionv(void);
_Noreturn void _ZSt25__throw_bad_function_callv(void);
_Noreturn void _ZSt28__throw_bad_array_new_lengthv(void);
_Noreturn void _ZSt19__throw_logic_errorPKc(const char *what);
_Noreturn void _ZSt20__throw_domain_errorPKc(const char *what);
_Noreturn void _ZSt24__throw_invalid_argumentPKc(const char *what);
_Noreturn void _ZSt20__throw_length_errorPKc(const char *what);
_Noreturn void _ZSt20__throw_out_of_rangePKc(const char *what);
_Noreturn void _ZSt24__throw_out_of_range_fmtPKcz(const char *fmt, ...);
_Noreturn void _ZSt21__throw_runtime_errorPKc(const char *what);
_Noreturn void _ZSt19__throw_range_errorPKc(const char *what);
_Noreturn void _ZSt22__throw_overflow_errorPKc(const char *what);
_Noreturn void _ZSt23__throw_underflow_errorPKc(const char *what);
_Noreturn void _ZSt19__throw_ios_failurePKc(const char *what);
_Noreturn void _ZSt20__throw_system_errori(int ev);
`;
  },
};
