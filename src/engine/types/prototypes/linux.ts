// Linux-only interfaces as glibc exports them: epoll, inotify, eventfd and timerfd, namespaces and mounts,
// prctl/ptrace/syscall, process_vm_readv (cross-process memory, like WriteProcessMemory), kernel modules,
// the 64-bit file-offset (LFS) twins that 32-bit builds and `-D_FILE_OFFSET_BITS=64` link against, and
// the GNU extensions macOS lacks.
import type { PrototypeModule } from './module.js';

export const linux: PrototypeModule = {
  name: 'linux',
  library: 'libc.so.6',
  platforms: ['linux'],
  declarations: `
long syscall(long number, ...);
long ptrace(enum __ptrace_request request, ...);
int prctl(int option, ...);
int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...);
int unshare(int flags);
int setns(int fd, int nstype);
int mount(const char *source, const char *target, const char *filesystemtype, unsigned long mountflags,
  const void *data);
int umount(const char *target);
int umount2(const char *target, int flags);
int pivot_root(const char *new_root, const char *put_old);
int reboot(int cmd);
int sysinfo(struct sysinfo *info);
int personality(unsigned long persona);
unsigned long getauxval(unsigned long type);
pid_t gettid(void);
int tgkill(pid_t tgid, pid_t tid, int sig);
int execvpe(const char *file, char *const argv[], char *const envp[]);
int fexecve(int fd, char *const argv[], char *const envp[]);
int getresuid(uid_t *ruid, uid_t *euid, uid_t *suid);
int getresgid(gid_t *rgid, gid_t *egid, gid_t *sgid);
int setresuid(uid_t ruid, uid_t euid, uid_t suid);
int setresgid(gid_t rgid, gid_t egid, gid_t sgid);
int setgroups(size_t size, const gid_t *list);
int initgroups(const char *user, gid_t group);
int sethostname(const char *name, size_t len);
int sigqueue(pid_t pid, int sig, const union sigval value);
int sigwaitinfo(const sigset_t *restrict set, siginfo_t *restrict info);
int sigtimedwait(const sigset_t *restrict set, siginfo_t *restrict info, const struct timespec *restrict timeout);
struct spwd *getspnam(const char *name);
int shm_open(const char *name, int oflag, mode_t mode);
void *mremap(void *old_address, size_t old_size, size_t new_size, int flags, ...);
int memfd_create(const char *name, unsigned int flags);
ssize_t getrandom(void *buf, size_t buflen, unsigned int flags);
int pipe2(int pipefd[2], int flags);
int dup3(int oldfd, int newfd, int flags);
int accept4(int sockfd, struct sockaddr *restrict addr, socklen_t *restrict addrlen, int flags);
ssize_t sendfile(int out_fd, int in_fd, off_t *offset, size_t count);
ssize_t splice(int fd_in, off64_t *off_in, int fd_out, off64_t *off_out, size_t len, unsigned int flags);
int fallocate(int fd, int mode, off_t offset, off_t len);
int posix_fallocate(int fd, off_t offset, off_t len);
int posix_fadvise(int fd, off_t offset, off_t len, int advice);
int epoll_create(int size);
int epoll_create1(int flags);
int epoll_ctl(int epfd, int op, int fd, struct epoll_event *event);
int epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout);
int epoll_pwait(int epfd, struct epoll_event *events, int maxevents, int timeout, const sigset_t *sigmask);
int inotify_init(void);
int inotify_init1(int flags);
int inotify_add_watch(int fd, const char *pathname, uint32_t mask);
int inotify_rm_watch(int fd, int wd);
int eventfd(unsigned int initval, int flags);
int timerfd_create(int clockid, int flags);
int timerfd_settime(int fd, int flags, const struct itimerspec *new_value, struct itimerspec *old_value);
int signalfd(int fd, const sigset_t *mask, int flags);
int sched_setaffinity(pid_t pid, size_t cpusetsize, const cpu_set_t *mask);
int sched_getaffinity(pid_t pid, size_t cpusetsize, cpu_set_t *mask);
ssize_t process_vm_readv(pid_t pid, const struct iovec *local_iov, unsigned long liovcnt,
  const struct iovec *remote_iov, unsigned long riovcnt, unsigned long flags);
ssize_t process_vm_writev(pid_t pid, const struct iovec *local_iov, unsigned long liovcnt,
  const struct iovec *remote_iov, unsigned long riovcnt, unsigned long flags);
int init_module(void *module_image, unsigned long len, const char *param_values);
int finit_module(int fd, const char *param_values, int flags);
int delete_module(const char *name, unsigned int flags);
int ioperm(unsigned long from, unsigned long num, int turn_on);
int iopl(int level);
int cacheflush(void *addr, int nbytes, int cache);
int gethostbyname_r(const char *restrict name, struct hostent *restrict ret, char *restrict buf, size_t buflen,
  struct hostent **restrict result, int *restrict h_errnop);
void *memalign(size_t alignment, size_t size);
void *pvalloc(size_t size);
size_t malloc_usable_size(void *ptr);
void *mempcpy(void *restrict dest, const void *restrict src, size_t n);
void *rawmemchr(const void *s, int c);
void *memrchr(const void *s, int c, size_t n);
char *strchrnul(const char *s, int c);
void explicit_bzero(void *s, size_t n);
int pthread_setname_np(pthread_t thread, const char *name);
int pthread_getattr_np(pthread_t thread, pthread_attr_t *attr);
int pthread_mutex_timedlock(pthread_mutex_t *restrict mutex, const struct timespec *restrict abstime);
int pthread_mutexattr_setrobust(pthread_mutexattr_t *attr, int robustness);
int pthread_mutex_consistent(pthread_mutex_t *mutex);
int pthread_condattr_setclock(pthread_condattr_t *attr, clockid_t clock_id);
int pthread_spin_init(pthread_spinlock_t *lock, int pshared);
int pthread_spin_destroy(pthread_spinlock_t *lock);
int pthread_spin_lock(pthread_spinlock_t *lock);
int pthread_spin_trylock(pthread_spinlock_t *lock);
int pthread_spin_unlock(pthread_spinlock_t *lock);
int pthread_barrier_init(pthread_barrier_t *restrict barrier, const pthread_barrierattr_t *restrict attr,
  unsigned int count);
int pthread_barrier_destroy(pthread_barrier_t *barrier);
int pthread_barrier_wait(pthread_barrier_t *barrier);
int sem_timedwait(sem_t *restrict sem, const struct timespec *restrict abs_timeout);
void *dlvsym(void *restrict handle, const char *restrict symbol, const char *restrict version);

int open64(const char *pathname, int flags, ...);
int openat64(int dirfd, const char *pathname, int flags, ...);
int creat64(const char *pathname, mode_t mode);
int fcntl64(int fd, int cmd, ...);
off64_t lseek64(int fd, off64_t offset, int whence);
ssize_t pread64(int fd, void *buf, size_t count, off64_t offset);
ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t offset);
int truncate64(const char *path, off64_t length);
int ftruncate64(int fd, off64_t length);
int stat64(const char *restrict pathname, struct stat64 *restrict statbuf);
int fstat64(int fd, struct stat64 *statbuf);
int lstat64(const char *restrict pathname, struct stat64 *restrict statbuf);
int fstatat64(int dirfd, const char *restrict pathname, struct stat64 *restrict statbuf, int flags);
int statfs64(const char *path, struct statfs64 *buf);
int fstatfs64(int fd, struct statfs64 *buf);
struct dirent64 *readdir64(DIR *dirp);
FILE *fopen64(const char *restrict pathname, const char *restrict mode);
FILE *freopen64(const char *restrict pathname, const char *restrict mode, FILE *restrict stream);
FILE *tmpfile64(void);
int fseeko64(FILE *stream, off64_t offset, int whence);
off64_t ftello64(FILE *stream);
int fgetpos64(FILE *restrict stream, fpos_t *restrict pos);
int fsetpos64(FILE *stream, const fpos_t *pos);
void *mmap64(void *addr, size_t length, int prot, int flags, int fd, off64_t offset);
int mkstemp64(char *template);
int getrlimit64(int resource, struct rlimit *rlim);
int setrlimit64(int resource, const struct rlimit *rlim);
ssize_t sendfile64(int out_fd, int in_fd, off64_t *offset, size_t count);
int fallocate64(int fd, int mode, off64_t offset, off64_t len);
int posix_fallocate64(int fd, off64_t offset, off64_t len);
int posix_fadvise64(int fd, off64_t offset, off64_t len, int advice);
`,
};
