// msvcrt.dll's own names: the underscore CRT functions, the secure `_s` variants, the start-up and exception
// entry points compilers' start-up code imports (__getmainargs, _initterm, __C_specific_handler …), and the
// legacy forms of wide functions whose msvcrt signature differs from C99 (swprintf without a count). The
// C standard names msvcrt also exports are the C modules' entries.
import type { PrototypeModule } from './module.js';

export const msvcrt: PrototypeModule = {
  name: 'msvcrt',
  library: 'msvcrt.dll',
  platforms: ['windows'],
  declarations: `
int __cdecl _snprintf(char *buffer, size_t count, const char *format, ...);
int __cdecl _snwprintf(wchar_t *buffer, size_t count, const wchar_t *format, ...);
int __cdecl _vsnprintf(char *buffer, size_t count, const char *format, va_list argptr);
int __cdecl _vsnwprintf(wchar_t *buffer, size_t count, const wchar_t *format, va_list argptr);
int __cdecl _scprintf(const char *format, ...);
int __cdecl _scwprintf(const wchar_t *format, ...);
int __cdecl _vscprintf(const char *format, va_list argptr);
int __cdecl _vscwprintf(const wchar_t *format, va_list argptr);
int __cdecl swprintf(wchar_t *buffer, const wchar_t *format, ...);
int __cdecl vswprintf(wchar_t *buffer, const wchar_t *format, va_list argptr);
wchar_t *__cdecl wcstok(wchar_t *strToken, const wchar_t *strDelimit);
int __cdecl sprintf_s(char *buffer, size_t sizeOfBuffer, const char *format, ...);
int __cdecl swprintf_s(wchar_t *buffer, size_t sizeOfBuffer, const wchar_t *format, ...);
int __cdecl _snprintf_s(char *buffer, size_t sizeOfBuffer, size_t count, const char *format, ...);
int __cdecl vsprintf_s(char *buffer, size_t numberOfElements, const char *format, va_list argptr);
int __cdecl _vsnprintf_s(char *buffer, size_t sizeOfBuffer, size_t count, const char *format, va_list argptr);
errno_t __cdecl strcpy_s(char *dest, rsize_t dest_size, const char *src);
errno_t __cdecl strncpy_s(char *strDest, size_t numberOfElements, const char *strSource, size_t count);
errno_t __cdecl strcat_s(char *strDestination, size_t numberOfElements, const char *strSource);
errno_t __cdecl strncat_s(char *strDest, size_t numberOfElements, const char *strSource, size_t count);
errno_t __cdecl wcscpy_s(wchar_t *dest, rsize_t dest_size, const wchar_t *src);
errno_t __cdecl wcsncpy_s(wchar_t *strDest, size_t numberOfElements, const wchar_t *strSource, size_t count);
errno_t __cdecl wcscat_s(wchar_t *strDestination, size_t numberOfElements, const wchar_t *strSource);
errno_t __cdecl memcpy_s(void *dest, size_t destSize, const void *src, size_t count);
errno_t __cdecl memmove_s(void *dest, size_t numberOfElements, const void *src, size_t count);
char *__cdecl strtok_s(char *str, const char *delimiters, char **context);
wchar_t *__cdecl wcstok_s(wchar_t *str, const wchar_t *delimiters, wchar_t **context);
errno_t __cdecl fopen_s(FILE **pFile, const char *filename, const char *mode);
errno_t __cdecl _wfopen_s(FILE **pFile, const wchar_t *filename, const wchar_t *mode);
errno_t __cdecl getenv_s(size_t *pReturnValue, char *buffer, size_t numberOfElements, const char *varname);
errno_t __cdecl _dupenv_s(char **buffer, size_t *numberOfElements, const char *varname);
errno_t __cdecl strerror_s(char *buffer, size_t numberOfElements, int errnum);
errno_t __cdecl mbstowcs_s(size_t *pReturnValue, wchar_t *wcstr, size_t sizeInWords, const char *mbstr,
  size_t count);
errno_t __cdecl wcstombs_s(size_t *pReturnValue, char *mbstr, size_t sizeInBytes, const wchar_t *wcstr,
  size_t count);
errno_t __cdecl rand_s(unsigned int *randomValue);
errno_t __cdecl _itoa_s(int value, char *buffer, size_t size, int radix);
errno_t __cdecl _localtime64_s(struct tm *tmDest, const __time64_t *sourceTime);

char *__cdecl _strdup(const char *strSource);
wchar_t *__cdecl _wcsdup(const wchar_t *strSource);
int __cdecl _stricmp(const char *string1, const char *string2);
int __cdecl _strnicmp(const char *string1, const char *string2, size_t count);
int __cdecl _strcmpi(const char *string1, const char *string2);
int __cdecl _wcsicmp(const wchar_t *string1, const wchar_t *string2);
int __cdecl _wcsnicmp(const wchar_t *string1, const wchar_t *string2, size_t count);
int __cdecl _memicmp(const void *buffer1, const void *buffer2, size_t count);
char *__cdecl _strlwr(char *str);
char *__cdecl _strupr(char *str);
wchar_t *__cdecl _wcslwr(wchar_t *str);
wchar_t *__cdecl _wcsupr(wchar_t *str);
char *__cdecl _strrev(char *str);
char *__cdecl _itoa(int value, char *buffer, int radix);
char *__cdecl _ltoa(long value, char *buffer, int radix);
char *__cdecl _ultoa(unsigned long value, char *buffer, int radix);
char *__cdecl _i64toa(__int64 value, char *buffer, int radix);
char *__cdecl _ui64toa(unsigned __int64 value, char *buffer, int radix);
wchar_t *__cdecl _itow(int value, wchar_t *buffer, int radix);
wchar_t *__cdecl _ltow(long value, wchar_t *buffer, int radix);
wchar_t *__cdecl _i64tow(__int64 value, wchar_t *buffer, int radix);
__int64 __cdecl _atoi64(const char *str);
int __cdecl _wtoi(const wchar_t *str);
long __cdecl _wtol(const wchar_t *str);
__int64 __cdecl _wtoi64(const wchar_t *str);
__int64 __cdecl _strtoi64(const char *strSource, char **endptr, int base);
unsigned __int64 __cdecl _strtoui64(const char *strSource, char **endptr, int base);
__int64 __cdecl _wcstoi64(const wchar_t *strSource, wchar_t **endptr, int base);
unsigned __int64 __cdecl _wcstoui64(const wchar_t *strSource, wchar_t **endptr, int base);

int __cdecl _open(const char *filename, int oflag, ...);
int __cdecl _wopen(const wchar_t *filename, int oflag, ...);
int __cdecl _read(int fd, void *buffer, unsigned int buffer_size);
int __cdecl _write(int fd, const void *buffer, unsigned int count);
int __cdecl _close(int fd);
long __cdecl _lseek(int fd, long offset, int origin);
__int64 __cdecl _lseeki64(int fd, __int64 offset, int origin);
long __cdecl _filelength(int fd);
int __cdecl _chsize(int fd, long size);
int __cdecl _access(const char *path, int mode);
int __cdecl _waccess(const wchar_t *path, int mode);
int __cdecl _unlink(const char *filename);
int __cdecl _wunlink(const wchar_t *filename);
int __cdecl _mkdir(const char *dirname);
int __cdecl _wmkdir(const wchar_t *dirname);
int __cdecl _rmdir(const char *dirname);
int __cdecl _wrmdir(const wchar_t *dirname);
int __cdecl _chdir(const char *dirname);
int __cdecl _wchdir(const wchar_t *dirname);
char *__cdecl _getcwd(char *buffer, int maxlen);
wchar_t *__cdecl _wgetcwd(wchar_t *buffer, int maxlen);
int __cdecl _getdrive(void);
char *__cdecl _fullpath(char *absPath, const char *relPath, size_t maxLength);
wchar_t *__cdecl _wfullpath(wchar_t *absPath, const wchar_t *relPath, size_t maxLength);
void __cdecl _splitpath(const char *path, char *drive, char *dir, char *fname, char *ext);
void __cdecl _makepath(char *path, const char *drive, const char *dir, const char *fname, const char *ext);
intptr_t __cdecl _findfirst(const char *filespec, struct _finddata_t *fileinfo);
int __cdecl _findnext(intptr_t handle, struct _finddata_t *fileinfo);
intptr_t __cdecl _wfindfirst(const wchar_t *filespec, struct _wfinddata_t *fileinfo);
int __cdecl _wfindnext(intptr_t handle, struct _wfinddata_t *fileinfo);
int __cdecl _findclose(intptr_t handle);
int __cdecl _stat(const char *path, struct _stat *buffer);
int __cdecl _fstat(int fd, struct _stat *buffer);
int __cdecl _stat64(const char *path, struct _stat64 *buffer);
int __cdecl _fstat64(int fd, struct _stat64 *buffer);
int __cdecl _wstat64(const wchar_t *path, struct _stat64 *buffer);
int __cdecl _fileno(FILE *stream);
FILE *__cdecl _fdopen(int fd, const char *mode);
FILE *__cdecl _wfopen(const wchar_t *filename, const wchar_t *mode);
FILE *__cdecl _fsopen(const char *filename, const char *mode, int shflag);
int __cdecl _setmode(int fd, int mode);
intptr_t __cdecl _get_osfhandle(int fd);
int __cdecl _open_osfhandle(intptr_t osfhandle, int flags);
int __cdecl _dup(int fd);
int __cdecl _dup2(int fd1, int fd2);
int __cdecl _pipe(int *pfds, unsigned int psize, int textmode);
FILE *__cdecl _popen(const char *command, const char *mode);
FILE *__cdecl _wpopen(const wchar_t *command, const wchar_t *mode);
int __cdecl _pclose(FILE *stream);
int __cdecl _flushall(void);
int __cdecl _fcloseall(void);
int __cdecl _getch(void);
int __cdecl _getche(void);
int __cdecl _putch(int c);
int __cdecl _kbhit(void);
int __cdecl _cputs(const char *str);
int __cdecl _cprintf(const char *format, ...);
int __cdecl _getpid(void);
int __cdecl _putenv(const char *envstring);
int __cdecl _wputenv(const wchar_t *envstring);
wchar_t *__cdecl _wgetenv(const wchar_t *varname);
int __cdecl _wsystem(const wchar_t *command);
int __cdecl _wremove(const wchar_t *path);
int __cdecl _wrename(const wchar_t *oldname, const wchar_t *newname);
intptr_t __cdecl _execl(const char *cmdname, const char *arg0, ...);
intptr_t __cdecl _execv(const char *cmdname, const char *const *argv);
intptr_t __cdecl _execvp(const char *cmdname, const char *const *argv);
intptr_t __cdecl _spawnl(int mode, const char *cmdname, const char *arg0, ...);
intptr_t __cdecl _spawnv(int mode, const char *cmdname, const char *const *argv);
intptr_t __cdecl _spawnvp(int mode, const char *cmdname, const char *const *argv);
intptr_t __cdecl _wspawnv(int mode, const wchar_t *cmdname, const wchar_t *const *argv);

uintptr_t __cdecl _beginthread(void (__cdecl *start_address)(void *), unsigned stack_size, void *arglist);
uintptr_t __cdecl _beginthreadex(void *security, unsigned stack_size, unsigned (__stdcall *start_address)(void *),
  void *arglist, unsigned initflag, unsigned *thrdaddr);
_Noreturn void __cdecl _endthread(void);
_Noreturn void __cdecl _endthreadex(unsigned retval);
_Noreturn void __cdecl _exit(int status);
void __cdecl _cexit(void);
void __cdecl _c_exit(void);
_Noreturn void __cdecl _amsg_exit(int rterrnum);
_Noreturn void __cdecl _assert(const char *message, const char *filename, unsigned line);
_Noreturn void __cdecl _wassert(const wchar_t *message, const wchar_t *filename, unsigned line);
_Noreturn int __cdecl _purecall(void);
_Noreturn void __stdcall _CxxThrowException(void *pExceptionObject, struct _ThrowInfo *pThrowInfo);
EXCEPTION_DISPOSITION __cdecl __CxxFrameHandler3(struct _EXCEPTION_RECORD *pExcept, void *pRN,
  struct _CONTEXT *pContext, void *pDC);
EXCEPTION_DISPOSITION __cdecl __C_specific_handler(struct _EXCEPTION_RECORD *ExceptionRecord,
  void *EstablisherFrame, struct _CONTEXT *ContextRecord, struct _DISPATCHER_CONTEXT *DispatcherContext);
int __cdecl _except_handler3(struct _EXCEPTION_RECORD *ExceptionRecord, void *EstablisherFrame,
  struct _CONTEXT *ContextRecord, void *DispatcherContext);
int __cdecl _XcptFilter(unsigned long xcptnum, PEXCEPTION_POINTERS pxcptinfoptrs);
int __cdecl _setjmp(jmp_buf env);
int __cdecl _setjmp3(jmp_buf env, int count, ...);

int __cdecl __getmainargs(int *_Argc, char ***_Argv, char ***_Env, int _DoWildCard, _startupinfo *_StartInfo);
int __cdecl __wgetmainargs(int *_Argc, wchar_t ***_Argv, wchar_t ***_Env, int _DoWildCard,
  _startupinfo *_StartInfo);
void __cdecl _initterm(_PVFV *pfbegin, _PVFV *pfend);
int __cdecl _initterm_e(_PIFV *pfbegin, _PIFV *pfend);
void __cdecl __set_app_type(int at);
void __cdecl __setusermatherr(int (__cdecl *pf)(struct _exception *));
unsigned int __cdecl _controlfp(unsigned int newValue, unsigned int mask);
unsigned int __cdecl _control87(unsigned int newValue, unsigned int mask);
unsigned int __cdecl _clearfp(void);
void __cdecl _fpreset(void);
int *__cdecl __p__fmode(void);
int *__cdecl __p__commode(void);
int *__cdecl __p___argc(void);
char ***__cdecl __p___argv(void);
wchar_t ***__cdecl __p___wargv(void);
char ***__cdecl __p__environ(void);
wchar_t ***__cdecl __p__wenviron(void);
char **__cdecl __p__acmdln(void);
wchar_t **__cdecl __p__wcmdln(void);
char ***__cdecl __p___initenv(void);
FILE *__cdecl __iob_func(void);
FILE *__cdecl __acrt_iob_func(unsigned index);
unsigned int __cdecl ___lc_codepage_func(void);
int __cdecl ___mb_cur_max_func(void);
_onexit_t __cdecl _onexit(_onexit_t function);
_onexit_t __cdecl __dllonexit(_onexit_t func, _PVFV **pbegin, _PVFV **pend);
void __cdecl _lock(int locknum);
void __cdecl _unlock(int locknum);
int *__cdecl _errno(void);
unsigned long *__cdecl __doserrno(void);
errno_t __cdecl _get_errno(int *pValue);
errno_t __cdecl _set_errno(int value);
_invalid_parameter_handler __cdecl _set_invalid_parameter_handler(_invalid_parameter_handler pNew);
void __cdecl _invalid_parameter_noinfo(void);
_Noreturn void __cdecl _invalid_parameter_noinfo_noreturn(void);
unsigned int __cdecl _set_abort_behavior(unsigned int flags, unsigned int mask);
int __cdecl _set_error_mode(int mode_val);

void *__cdecl _aligned_malloc(size_t size, size_t alignment);
void *__cdecl _aligned_realloc(void *memblock, size_t size, size_t alignment);
void __cdecl _aligned_free(void *memblock);
size_t __cdecl _msize(void *memblock);
__time64_t __cdecl _time64(__time64_t *destTime);
__time32_t __cdecl _time32(__time32_t *destTime);
struct tm *__cdecl _localtime64(const __time64_t *sourceTime);
struct tm *__cdecl _localtime32(const __time32_t *sourceTime);
struct tm *__cdecl _gmtime64(const __time64_t *sourceTime);
__time64_t __cdecl _mktime64(struct tm *timeptr);
void __cdecl _ftime(struct _timeb *timeptr);
char *__cdecl _strdate(char *datestr);
char *__cdecl _strtime(char *timestr);
void __cdecl _sleep(unsigned long duration);
`,
};
