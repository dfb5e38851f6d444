// POSIX on Linux and macOS: processes and their identities (<unistd.h>, <sys/wait.h>, <spawn.h>), signals
// (<signal.h>), clocks and timers (<time.h>, <sys/time.h>), users and groups (<pwd.h>, <grp.h>), limits
// (<sys/resource.h>), <getopt.h>, <syslog.h>, <err.h>, <execinfo.h>, <termios.h> and <sys/utsname.h>.
import type { PrototypeModule } from './module.js';

export const posixProcesses: PrototypeModule = {
  name: 'posix-processes',
  library: { linux: 'libc.so.6', macos: 'libSystem.B.dylib' },
  platforms: ['linux', 'macos'],
  declarations: `
pid_t fork(void);
pid_t vfork(void);
int execve(const char *pathname, char *const argv[], char *const envp[]);
int execv(const char *pathname, char *const argv[]);
int execvp(const char *file, char *const argv[]);
int execl(const char *pathname, const char *arg, ...);
int execlp(const char *file, const char *arg, ...);
int execle(const char *pathname, const char *arg, ...);
_Noreturn void _exit(int status);
int posix_spawn(pid_t *restrict pid, const char *restrict path,
  const posix_spawn_file_actions_t *file_actions, const posix_spawnattr_t *restrict attrp,
  char *const argv[restrict], char *const envp[restrict]);
int posix_spawnp(pid_t *restrict pid, const char *restrict file,
  const posix_spawn_file_actions_t *file_actions, const posix_spawnattr_t *restrict attrp,
  char *const argv[restrict], char *const envp[restrict]);
int posix_spawn_file_actions_init(posix_spawn_file_actions_t *file_actions);
int posix_spawn_file_actions_destroy(posix_spawn_file_actions_t *file_actions);
int posix_spawn_file_actions_adddup2(posix_spawn_file_actions_t *file_actions, int fildes, int newfildes);
int posix_spawn_file_actions_addclose(posix_spawn_file_actions_t *file_actions, int fildes);
int posix_spawnattr_init(posix_spawnattr_t *attr);
int posix_spawnattr_destroy(posix_spawnattr_t *attr);
int posix_spawnattr_setflags(posix_spawnattr_t *attr, short flags);
pid_t wait(int *wstatus);
pid_t waitpid(pid_t pid, int *wstatus, int options);
int waitid(idtype_t idtype, id_t id, siginfo_t *infop, int options);
pid_t wait3(int *wstatus, int options, struct rusage *rusage);
pid_t wait4(pid_t pid, int *wstatus, int options, struct rusage *rusage);
pid_t getpid(void);
pid_t getppid(void);
uid_t getuid(void);
uid_t geteuid(void);
gid_t getgid(void);
gid_t getegid(void);
int setuid(uid_t uid);
int setgid(gid_t gid);
int seteuid(uid_t euid);
int setegid(gid_t egid);
int setreuid(uid_t ruid, uid_t euid);
int setregid(gid_t rgid, gid_t egid);
pid_t setsid(void);
pid_t getsid(pid_t pid);
int setpgid(pid_t pid, pid_t pgid);
pid_t getpgid(pid_t pid);
pid_t getpgrp(void);
int getgroups(int size, gid_t list[]);
char *getlogin(void);
int getlogin_r(char *buf, size_t bufsize);
int gethostname(char *name, size_t len);
long gethostid(void);
long sysconf(int name);
size_t confstr(int name, char *buf, size_t size);
int getpagesize(void);
int getdtablesize(void);
int daemon(int nochdir, int noclose);
int nice(int inc);
unsigned int sleep(unsigned int seconds);
int usleep(useconds_t usec);
unsigned int alarm(unsigned int seconds);
int pause(void);
int uname(struct utsname *buf);

int kill(pid_t pid, int sig);
int killpg(int pgrp, int sig);
int sigaction(int signum, const struct sigaction *restrict act, struct sigaction *restrict oldact);
int sigemptyset(sigset_t *set);
int sigfillset(sigset_t *set);
int sigaddset(sigset_t *set, int signum);
int sigdelset(sigset_t *set, int signum);
int sigismember(const sigset_t *set, int signum);
int sigprocmask(int how, const sigset_t *restrict set, sigset_t *restrict oldset);
int sigpending(sigset_t *set);
int sigsuspend(const sigset_t *mask);
int sigwait(const sigset_t *restrict set, int *restrict sig);
int siginterrupt(int sig, int flag);
_Noreturn void siglongjmp(sigjmp_buf env, int val);
int _setjmp(jmp_buf env);
_Noreturn void _longjmp(jmp_buf env, int val);

int gettimeofday(struct timeval *restrict tv, void *restrict tz);
int settimeofday(const struct timeval *tv, const struct timezone *tz);
int clock_gettime(clockid_t clockid, struct timespec *tp);
int clock_settime(clockid_t clockid, const struct timespec *tp);
int clock_getres(clockid_t clockid, struct timespec *res);
int nanosleep(const struct timespec *req, struct timespec *rem);
struct tm *localtime_r(const time_t *restrict timep, struct tm *restrict result);
struct tm *gmtime_r(const time_t *restrict timep, struct tm *restrict result);
char *asctime_r(const struct tm *restrict tm, char *restrict buf);
char *ctime_r(const time_t *restrict timep, char *restrict buf);
time_t timegm(struct tm *tm);
void tzset(void);
char *strptime(const char *restrict s, const char *restrict format, struct tm *restrict tm);
clock_t times(struct tms *buf);

struct passwd *getpwnam(const char *name);
struct passwd *getpwuid(uid_t uid);
int getpwnam_r(const char *restrict name, struct passwd *restrict pwd, char *restrict buf, size_t buflen,
  struct passwd **restrict result);
int getpwuid_r(uid_t uid, struct passwd *restrict pwd, char *restrict buf, size_t buflen,
  struct passwd **restrict result);
struct passwd *getpwent(void);
void setpwent(void);
void endpwent(void);
struct group *getgrnam(const char *name);
struct group *getgrgid(gid_t gid);
struct group *getgrent(void);
void setgrent(void);
void endgrent(void);
int getrlimit(int resource, struct rlimit *rlim);
int setrlimit(int resource, const struct rlimit *rlim);
int getrusage(int who, struct rusage *usage);
int getpriority(int which, id_t who);
int setpriority(int which, id_t who, int prio);
int sched_yield(void);

int getopt(int argc, char *const argv[], const char *optstring);
int getopt_long(int argc, char *const argv[], const char *optstring, const struct option *longopts,
  int *longindex);
int getopt_long_only(int argc, char *const argv[], const char *optstring, const struct option *longopts,
  int *longindex);
void openlog(const char *ident, int option, int facility);
void syslog(int priority, const char *format, ...);
void vsyslog(int priority, const char *format, va_list ap);
void closelog(void);
int setlogmask(int mask);
_Noreturn void err(int eval, const char *fmt, ...);
_Noreturn void errx(int eval, const char *fmt, ...);
_Noreturn void verr(int eval, const char *fmt, va_list args);
_Noreturn void verrx(int eval, const char *fmt, va_list args);
void warn(const char *fmt, ...);
void warnx(const char *fmt, ...);
void vwarn(const char *fmt, va_list args);
void vwarnx(const char *fmt, va_list args);
int backtrace(void **buffer, int size);
char **backtrace_symbols(void *const *buffer, int size);
void backtrace_symbols_fd(void *const *buffer, int size, int fd);
int tcgetattr(int fd, struct termios *termios_p);
int tcsetattr(int fd, int optional_actions, const struct termios *termios_p);
pid_t tcgetpgrp(int fd);
int posix_openpt(int flags);
int grantpt(int fd);
int unlockpt(int fd);
char *ptsname(int fd);
`,
};
