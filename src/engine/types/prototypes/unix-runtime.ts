// Entry points compilers emit calls to, which both glibc and macOS's libSystem provide: the stack protector's
// failure handler, C++ static destructor registration, and the _FORTIFY_SOURCE checked copies and formats
// (each takes the destination's size as an extra argument). glibc's other checked functions are in glibc.
import type { PrototypeModule } from './module.js';

export const unixRuntime: PrototypeModule = {
  name: 'unix-runtime',
  library: { linux: 'libc.so.6', macos: 'libSystem.B.dylib' },
  platforms: ['linux', 'macos'],
  declarations: `
_Noreturn void __stack_chk_fail(void);
int __cxa_atexit(void (*func)(void *), void *arg, void *dso_handle);
void __cxa_finalize(void *dso_handle);
void *__memcpy_chk(void *dest, const void *src, size_t len, size_t destlen);
void *__memmove_chk(void *dest, const void *src, size_t len, size_t destlen);
void *__memset_chk(void *dest, int c, size_t len, size_t destlen);
char *__strcpy_chk(char *dest, const char *src, size_t destlen);
char *__stpcpy_chk(char *dest, const char *src, size_t destlen);
char *__strncpy_chk(char *dest, const char *src, size_t n, size_t destlen);
char *__stpncpy_chk(char *dest, const char *src, size_t n, size_t destlen);
char *__strcat_chk(char *dest, const char *src, size_t destlen);
char *__strncat_chk(char *dest, const char *src, size_t n, size_t destlen);
int __sprintf_chk(char *s, int flag, size_t slen, const char *format, ...);
int __snprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *format, ...);
int __vsprintf_chk(char *s, int flag, size_t slen, const char *format, va_list ap);
int __vsnprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *format, va_list ap);
`,
};
