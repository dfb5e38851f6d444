// The C library's types as msvcrt.dll defines them, for the C standard modules on Windows and msvcrt's own
// names. msvcrt.dll's `time_t` is 32 bits in Win32 and 64 in Win64, hence intptr_t; `wint_t` is 16 bits.
import type { PrototypeModule } from './module.js';

export const msvcrtTypes: PrototypeModule = {
  name: 'msvcrt-types',
  library: 'msvcrt.dll',
  platforms: ['windows'],
  declarations: (model) => `
typedef char *va_list;
typedef intptr_t time_t;
typedef long clock_t;
typedef __int64 __time64_t;
typedef long __time32_t;
typedef __int64 fpos_t;
typedef unsigned short wint_t, wctype_t;
typedef int mbstate_t;
typedef int errno_t;
typedef unsigned int _dev_t;
typedef unsigned short _ino_t;
typedef long _off_t;
typedef unsigned long _fsize_t;

typedef struct _iobuf {
  char *_ptr;
  int _cnt;
  char *_base;
  int _flag;
  int _file;
  int _charbuf;
  int _bufsiz;
  char *_tmpfname;
} FILE;

struct tm {
  int tm_sec;
  int tm_min;
  int tm_hour;
  int tm_mday;
  int tm_mon;
  int tm_year;
  int tm_wday;
  int tm_yday;
  int tm_isdst;
};
struct lconv;

typedef struct _div_t { int quot; int rem; } div_t;
typedef struct _ldiv_t { long quot; long rem; } ldiv_t;
typedef struct _lldiv_t { long long quot; long long rem; } lldiv_t;

${
  model === 'ILP32'
    ? 'typedef int jmp_buf[16];'
    : 'typedef struct _SETJMP_FLOAT128 { unsigned __int64 Part[2]; } SETJMP_FLOAT128;\ntypedef SETJMP_FLOAT128 jmp_buf[16];'
}

struct _stat64 {
  _dev_t st_dev;
  _ino_t st_ino;
  unsigned short st_mode;
  short st_nlink;
  short st_uid;
  short st_gid;
  _dev_t st_rdev;
  __int64 st_size;
  __time64_t st_atime;
  __time64_t st_mtime;
  __time64_t st_ctime;
};
struct _stat;
struct _finddata_t;
struct _wfinddata_t;
struct _timeb;
struct _exception;

typedef struct { int newmode; } _startupinfo;
typedef void (__cdecl *_PVFV)(void);
typedef int (__cdecl *_PIFV)(void);
typedef int (__cdecl *_onexit_t)(void);
typedef void (__cdecl *_invalid_parameter_handler)(const wchar_t *expression, const wchar_t *function,
  const wchar_t *file, unsigned int line, uintptr_t reserved);
typedef struct localeinfo_struct *_locale_t;
`,
};
