// glibc's own entry points: process start-up (__libc_start_main), errno and ctype tables reached through
// functions, assertion failures, C99/C23 scanf and strtol redirections, the stat wrappers older glibc
// binaries call, and the _FORTIFY_SOURCE functions only glibc has (__printf_chk, __read_chk …).
import type { PrototypeModule } from './module.js';

export const glibc: PrototypeModule = {
  name: 'glibc',
  library: 'libc.so.6',
  platforms: ['linux'],
  declarations: `
_Noreturn int __libc_start_main(int (*main)(int, char **, char **), int argc, char **argv, void (*init)(void),
  void (*fini)(void), void (*rtld_fini)(void), void *stack_end);
void __libc_csu_init(int argc, char **argv, char **envp);
void __libc_csu_fini(void);
void __gmon_start__(void);
void _ITM_registerTMCloneTable(void *table, size_t size);
void _ITM_deregisterTMCloneTable(void *table);
int __cxa_thread_atexit_impl(void (*dtor)(void *), void *obj, void *dso_symbol);
int __register_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void), void *dso_handle);
int *__errno_location(void);
int *__h_errno_location(void);
_Noreturn void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function);
_Noreturn void __assert_perror_fail(int errnum, const char *file, unsigned int line, const char *function);
_Noreturn void __assert(const char *assertion, const char *file, int line);
const unsigned short **__ctype_b_loc(void);
const int32_t **__ctype_tolower_loc(void);
const int32_t **__ctype_toupper_loc(void);
size_t __ctype_get_mb_cur_max(void);
int __libc_current_sigrtmin(void);
int __libc_current_sigrtmax(void);
__sighandler_t __sysv_signal(int sig, __sighandler_t handler);
__sighandler_t sysv_signal(int sig, __sighandler_t handler);
__sighandler_t bsd_signal(int sig, __sighandler_t handler);
const char *gnu_get_libc_version(void);
int __sigsetjmp(struct __jmp_buf_tag env[1], int savemask);
char *strerror_r(int errnum, char *buf, size_t buflen);
int __xpg_strerror_r(int errnum, char *buf, size_t buflen);
char *__xpg_basename(char *path);
void error(int status, int errnum, const char *format, ...);
void error_at_line(int status, int errnum, const char *filename, unsigned int linenum, const char *format, ...);

int __isoc99_scanf(const char *restrict format, ...);
int __isoc99_fscanf(FILE *restrict stream, const char *restrict format, ...);
int __isoc99_sscanf(const char *restrict str, const char *restrict format, ...);
int __isoc99_vscanf(const char *restrict format, va_list ap);
int __isoc99_vfscanf(FILE *restrict stream, const char *restrict format, va_list ap);
int __isoc99_vsscanf(const char *restrict str, const char *restrict format, va_list ap);
int __isoc99_wscanf(const wchar_t *restrict format, ...);
int __isoc99_fwscanf(FILE *restrict stream, const wchar_t *restrict format, ...);
int __isoc99_swscanf(const wchar_t *restrict ws, const wchar_t *restrict format, ...);
int __isoc23_scanf(const char *restrict format, ...);
int __isoc23_fscanf(FILE *restrict stream, const char *restrict format, ...);
int __isoc23_sscanf(const char *restrict str, const char *restrict format, ...);
int __isoc23_vsscanf(const char *restrict str, const char *restrict format, va_list ap);
long __isoc23_strtol(const char *restrict nptr, char **restrict endptr, int base);
unsigned long __isoc23_strtoul(const char *restrict nptr, char **restrict endptr, int base);
long long __isoc23_strtoll(const char *restrict nptr, char **restrict endptr, int base);
unsigned long long __isoc23_strtoull(const char *restrict nptr, char **restrict endptr, int base);
long __isoc23_wcstol(const wchar_t *restrict nptr, wchar_t **restrict endptr, int base);
unsigned long __isoc23_wcstoul(const wchar_t *restrict nptr, wchar_t **restrict endptr, int base);

int __xstat(int ver, const char *path, struct stat *stat_buf);
int __fxstat(int ver, int fd, struct stat *stat_buf);
int __lxstat(int ver, const char *path, struct stat *stat_buf);
int __fxstatat(int ver, int dirfd, const char *path, struct stat *stat_buf, int flag);
int __xstat64(int ver, const char *path, struct stat64 *stat_buf);
int __fxstat64(int ver, int fd, struct stat64 *stat_buf);
int __lxstat64(int ver, const char *path, struct stat64 *stat_buf);
int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *stat_buf, int flag);

_Noreturn void __chk_fail(void);
_Noreturn void __fortify_fail(const char *msg);
_Noreturn void __stack_chk_fail_local(void);
int __printf_chk(int flag, const char *format, ...);
int __fprintf_chk(FILE *fp, int flag, const char *format, ...);
int __vprintf_chk(int flag, const char *format, va_list ap);
int __vfprintf_chk(FILE *fp, int flag, const char *format, va_list ap);
int __dprintf_chk(int d, int flag, const char *format, ...);
int __vdprintf_chk(int d, int flag, const char *format, va_list ap);
int __asprintf_chk(char **result_ptr, int flag, const char *format, ...);
int __vasprintf_chk(char **result_ptr, int flag, const char *format, va_list ap);
int __wprintf_chk(int flag, const wchar_t *format, ...);
int __fwprintf_chk(FILE *fp, int flag, const wchar_t *format, ...);
int __swprintf_chk(wchar_t *s, size_t n, int flag, size_t slen, const wchar_t *format, ...);
int __vswprintf_chk(wchar_t *s, size_t maxlen, int flag, size_t slen, const wchar_t *format, va_list ap);
void __syslog_chk(int priority, int flag, const char *format, ...);
void __vsyslog_chk(int priority, int flag, const char *format, va_list ap);
void *__mempcpy_chk(void *dest, const void *src, size_t len, size_t destlen);
wchar_t *__wcscpy_chk(wchar_t *dest, const wchar_t *src, size_t destlen);
wchar_t *__wcsncpy_chk(wchar_t *dest, const wchar_t *src, size_t n, size_t destlen);
wchar_t *__wcscat_chk(wchar_t *dest, const wchar_t *src, size_t destlen);
wchar_t *__wmemcpy_chk(wchar_t *dest, const wchar_t *src, size_t n, size_t destlen);
wchar_t *__wmemmove_chk(wchar_t *dest, const wchar_t *src, size_t n, size_t destlen);
wchar_t *__wmemset_chk(wchar_t *s, wchar_t c, size_t n, size_t destlen);
void __explicit_bzero_chk(void *dest, size_t len, size_t destlen);
ssize_t __read_chk(int fd, void *buf, size_t nbytes, size_t buflen);
ssize_t __pread_chk(int fd, void *buf, size_t nbytes, off_t offset, size_t buflen);
ssize_t __pread64_chk(int fd, void *buf, size_t nbytes, off64_t offset, size_t buflen);
ssize_t __recv_chk(int fd, void *buf, size_t n, size_t buflen, int flags);
ssize_t __recvfrom_chk(int fd, void *restrict buf, size_t n, size_t buflen, int flags,
  struct sockaddr *restrict addr, socklen_t *restrict addr_len);
ssize_t __readlink_chk(const char *path, char *buf, size_t len, size_t buflen);
ssize_t __readlinkat_chk(int fd, const char *path, char *buf, size_t len, size_t buflen);
char *__getcwd_chk(char *buf, size_t size, size_t buflen);
char *__realpath_chk(const char *path, char *resolved, size_t resolvedlen);
char *__fgets_chk(char *buf, size_t size, int n, FILE *fp);
char *__fgets_unlocked_chk(char *buf, size_t size, int n, FILE *fp);
size_t __fread_chk(void *restrict ptr, size_t ptrlen, size_t size, size_t n, FILE *restrict stream);
size_t __fread_unlocked_chk(void *restrict ptr, size_t ptrlen, size_t size, size_t n, FILE *restrict stream);
char *__gets_chk(char *buf, size_t size);
_Noreturn void __longjmp_chk(struct __jmp_buf_tag env[1], int val);
int __poll_chk(struct pollfd *fds, nfds_t nfds, int timeout, size_t fdslen);
int __ttyname_r_chk(int fd, char *buf, size_t buflen, size_t nreal);
int __gethostname_chk(char *buf, size_t buflen, size_t nreal);
int __getlogin_r_chk(char *buf, size_t buflen, size_t nreal);
int __getgroups_chk(int size, gid_t list[], size_t listlen);
size_t __confstr_chk(int name, char *buf, size_t len, size_t buflen);
int __wctomb_chk(char *s, wchar_t wchar, size_t buflen);
size_t __mbstowcs_chk(wchar_t *dst, const char *src, size_t len, size_t dstlen);
size_t __wcstombs_chk(char *dst, const wchar_t *src, size_t len, size_t dstlen);
size_t __mbsrtowcs_chk(wchar_t *dst, const char **src, size_t len, mbstate_t *ps, size_t dstlen);
size_t __wcsrtombs_chk(char *dst, const wchar_t **src, size_t len, mbstate_t *ps, size_t dstlen);
long __fdelt_chk(long d);
int __open_2(const char *file, int oflag);
int __open64_2(const char *file, int oflag);
int __openat_2(int fd, const char *file, int oflag);
int __openat64_2(int fd, const char *file, int oflag);
`,
};
