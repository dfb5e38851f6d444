// POSIX and the BSD/GNU extensions glibc and macOS share: more of <stdio.h> (file descriptors, pipes, dynamic
// formatting, getline), <stdlib.h> (environment, randomness, aligned and temporary allocation), <string.h>
// and <strings.h>, and C99's wide formatting (msvcrt's older forms are in the msvcrt module).
import type { PrototypeModule } from './module.js';

export const posixStrings: PrototypeModule = {
  name: 'posix-strings',
  library: { linux: 'libc.so.6', macos: 'libSystem.B.dylib' },
  platforms: ['linux', 'macos'],
  declarations: `
FILE *fdopen(int fd, const char *mode);
int fileno(FILE *stream);
FILE *popen(const char *command, const char *type);
int pclose(FILE *stream);
FILE *fmemopen(void *buf, size_t size, const char *mode);
FILE *open_memstream(char **ptr, size_t *sizeloc);
ssize_t getline(char **restrict lineptr, size_t *restrict n, FILE *restrict stream);
ssize_t getdelim(char **restrict lineptr, size_t *restrict n, int delim, FILE *restrict stream);
int dprintf(int fd, const char *restrict format, ...);
int vdprintf(int fd, const char *restrict format, va_list ap);
int asprintf(char **restrict strp, const char *restrict fmt, ...);
int vasprintf(char **restrict strp, const char *restrict fmt, va_list ap);
int fseeko(FILE *stream, off_t offset, int whence);
off_t ftello(FILE *stream);
void flockfile(FILE *filehandle);
void funlockfile(FILE *filehandle);
int getc_unlocked(FILE *stream);
int putc_unlocked(int c, FILE *stream);
char *tempnam(const char *dir, const char *pfx);
char *ctermid(char *s);
int swprintf(wchar_t *restrict wcs, size_t maxlen, const wchar_t *restrict format, ...);
int vswprintf(wchar_t *restrict wcs, size_t maxlen, const wchar_t *restrict format, va_list args);
wchar_t *wcstok(wchar_t *restrict wcs, const wchar_t *restrict delim, wchar_t **restrict ptr);

int setenv(const char *name, const char *value, int overwrite);
int unsetenv(const char *name);
int putenv(char *string);
int posix_memalign(void **memptr, size_t alignment, size_t size);
void *valloc(size_t size);
void *reallocarray(void *ptr, size_t nmemb, size_t size);
int mkstemp(char *template);
int mkostemp(char *template, int flags);
char *mkdtemp(char *template);
char *mktemp(char *template);
long random(void);
void srandom(unsigned int seed);
char *initstate(unsigned int seed, char *state, size_t n);
char *setstate(char *state);
double drand48(void);
long lrand48(void);
long mrand48(void);
void srand48(long seedval);
int rand_r(unsigned int *seedp);
uint32_t arc4random(void);
void arc4random_buf(void *buf, size_t nbytes);
uint32_t arc4random_uniform(uint32_t upper_bound);
int getentropy(void *buffer, size_t length);
long long strtoq(const char *restrict nptr, char **restrict endptr, int base);
char *l64a(long value);

char *strdup(const char *s);
char *strndup(const char *s, size_t n);
size_t strnlen(const char *s, size_t maxlen);
char *strtok_r(char *restrict str, const char *restrict delim, char **restrict saveptr);
char *strsep(char **restrict stringp, const char *restrict delim);
int strcasecmp(const char *s1, const char *s2);
int strncasecmp(const char *s1, const char *s2, size_t n);
char *strcasestr(const char *haystack, const char *needle);
char *stpcpy(char *restrict dest, const char *restrict src);
char *stpncpy(char *restrict dest, const char *restrict src, size_t n);
size_t strlcpy(char *restrict dst, const char *restrict src, size_t size);
size_t strlcat(char *restrict dst, const char *restrict src, size_t size);
char *strsignal(int sig);
void *memccpy(void *restrict dest, const void *restrict src, int c, size_t n);
void *memmem(const void *haystack, size_t haystacklen, const void *needle, size_t needlelen);
void bzero(void *s, size_t n);
int bcmp(const void *s1, const void *s2, size_t n);
void bcopy(const void *src, void *dest, size_t n);
char *index(const char *s, int c);
char *rindex(const char *s, int c);
int ffs(int i);
size_t iconv(iconv_t cd, char **restrict inbuf, size_t *restrict inbytesleft, char **restrict outbuf,
  size_t *restrict outbytesleft);
iconv_t iconv_open(const char *tocode, const char *fromcode);
int iconv_close(iconv_t cd);
`,
};
