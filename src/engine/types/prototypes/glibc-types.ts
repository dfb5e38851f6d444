// The C and POSIX types as glibc defines them, for the C, POSIX and Linux modules on Linux. Layouts are
// x86-64's for LP64 and i386's for ILP32 (other 64-bit ABIs differ in va_list and struct stat). Structures
// whose i386 layout depends on 4-byte alignment of 8-byte members (struct stat64, dirent64) are defined on
// LP64 only and stay opaque on ILP32, where natural alignment would misplace their members.
import type { DataModel } from '../c-parse/index.js';
import type { PrototypeModule } from './module.js';

const lp64Only = (model: DataModel) =>
  model !== 'LP64'
    ? 'struct stat;\nstruct stat64;\nstruct dirent64;'
    : `
struct stat {
  dev_t st_dev;
  ino_t st_ino;
  nlink_t st_nlink;
  mode_t st_mode;
  uid_t st_uid;
  gid_t st_gid;
  int __pad0;
  dev_t st_rdev;
  off_t st_size;
  blksize_t st_blksize;
  blkcnt_t st_blocks;
  struct timespec st_atim;
  struct timespec st_mtim;
  struct timespec st_ctim;
  long __glibc_reserved[3];
};
struct stat64 {
  dev_t st_dev;
  ino64_t st_ino;
  nlink_t st_nlink;
  mode_t st_mode;
  uid_t st_uid;
  gid_t st_gid;
  int __pad0;
  dev_t st_rdev;
  off64_t st_size;
  blksize_t st_blksize;
  long st_blocks;
  struct timespec st_atim;
  struct timespec st_mtim;
  struct timespec st_ctim;
  long __glibc_reserved[3];
};
struct dirent64 { ino64_t d_ino; off64_t d_off; unsigned short d_reclen; unsigned char d_type; char d_name[256]; };`;

export const glibcTypes: PrototypeModule = {
  name: 'glibc-types',
  library: 'libc.so.6',
  platforms: ['linux'],
  declarations: (model) => {
    const lp64 = model === 'LP64';
    const longBytes = lp64 ? 8 : 4;
    return `
typedef struct _IO_FILE FILE;
typedef struct __dirstream DIR;
${
  lp64
    ? `struct __va_list_tag { unsigned int gp_offset; unsigned int fp_offset; void *overflow_arg_area;
  void *reg_save_area; };
typedef struct __va_list_tag va_list[1];`
    : 'typedef char *va_list;'
}
typedef struct { unsigned long __val[1024 / (8 * ${longBytes})]; } __sigset_t;
typedef __sigset_t sigset_t;
struct __jmp_buf_tag { ${lp64 ? 'long __jmpbuf[8]' : 'int __jmpbuf[6]'}; int __mask_was_saved; __sigset_t __saved_mask; };
typedef struct __jmp_buf_tag jmp_buf[1];
typedef struct __jmp_buf_tag sigjmp_buf[1];
typedef struct { int __count; union { unsigned int __wch; char __wchb[4]; } __value; } __mbstate_t;
typedef __mbstate_t mbstate_t;
typedef struct _G_fpos_t { off_t __pos; __mbstate_t __state; } fpos_t;
typedef struct { int quot; int rem; } div_t;
typedef struct { long quot; long rem; } ldiv_t;
typedef struct { long long quot; long long rem; } lldiv_t;
typedef struct __locale_struct *locale_t;
typedef void *iconv_t;
typedef void (*__sighandler_t)(int);
typedef __sighandler_t sighandler_t;
typedef unsigned long rlim_t;
typedef int idtype_t;
struct lconv;

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
  long tm_gmtoff;
  const char *tm_zone;
};
struct timespec { time_t tv_sec; long tv_nsec; };
struct timeval { time_t tv_sec; suseconds_t tv_usec; };
struct timezone { int tz_minuteswest; int tz_dsttime; };
struct itimerspec { struct timespec it_interval; struct timespec it_value; };
struct dirent { ino_t d_ino; off_t d_off; unsigned short d_reclen; unsigned char d_type; char d_name[256]; };
${lp64Only(model)}

struct in_addr { in_addr_t s_addr; };
struct in6_addr { union { uint8_t __u6_addr8[16]; uint16_t __u6_addr16[8]; uint32_t __u6_addr32[4]; } __in6_u; };
struct sockaddr { sa_family_t sa_family; char sa_data[14]; };
struct sockaddr_in { sa_family_t sin_family; in_port_t sin_port; struct in_addr sin_addr; unsigned char sin_zero[8]; };
struct sockaddr_in6 {
  sa_family_t sin6_family;
  in_port_t sin6_port;
  uint32_t sin6_flowinfo;
  struct in6_addr sin6_addr;
  uint32_t sin6_scope_id;
};
struct sockaddr_un { sa_family_t sun_family; char sun_path[108]; };
struct sockaddr_storage { sa_family_t ss_family; char __ss_padding[128 - 2 - ${longBytes}]; unsigned long __ss_align; };
struct addrinfo {
  int ai_flags;
  int ai_family;
  int ai_socktype;
  int ai_protocol;
  socklen_t ai_addrlen;
  struct sockaddr *ai_addr;
  char *ai_canonname;
  struct addrinfo *ai_next;
};
struct hostent { char *h_name; char **h_aliases; int h_addrtype; int h_length; char **h_addr_list; };
struct servent { char *s_name; char **s_aliases; int s_port; char *s_proto; };
struct protoent { char *p_name; char **p_aliases; int p_proto; };
struct iovec { void *iov_base; size_t iov_len; };
struct msghdr {
  void *msg_name;
  socklen_t msg_namelen;
  struct iovec *msg_iov;
  size_t msg_iovlen;
  void *msg_control;
  size_t msg_controllen;
  int msg_flags;
};
struct linger { int l_onoff; int l_linger; };
struct pollfd { int fd; short events; short revents; };
typedef struct { long __fds_bits[1024 / (8 * ${longBytes})]; } fd_set;
struct ifaddrs {
  struct ifaddrs *ifa_next;
  char *ifa_name;
  unsigned int ifa_flags;
  struct sockaddr *ifa_addr;
  struct sockaddr *ifa_netmask;
  struct sockaddr *ifa_ifu;
  void *ifa_data;
};

struct utsname {
  char sysname[65];
  char nodename[65];
  char release[65];
  char version[65];
  char machine[65];
  char domainname[65];
};
struct passwd {
  char *pw_name;
  char *pw_passwd;
  uid_t pw_uid;
  gid_t pw_gid;
  char *pw_gecos;
  char *pw_dir;
  char *pw_shell;
};
struct group { char *gr_name; char *gr_passwd; gid_t gr_gid; char **gr_mem; };
struct spwd;
struct option { const char *name; int has_arg; int *flag; int val; };
typedef struct { const char *dli_fname; void *dli_fbase; const char *dli_sname; void *dli_saddr; } Dl_info;
struct rlimit { rlim_t rlim_cur; rlim_t rlim_max; };
struct rusage;
struct tms;
struct sched_param { int sched_priority; };
struct termios;
struct statfs;
struct statfs64;
struct statvfs;
struct sysinfo;
struct epoll_event;
struct utimbuf { time_t actime; time_t modtime; };

union sigval { int sival_int; void *sival_ptr; };
typedef struct {
  int si_signo;
  int si_errno;
  int si_code;
  union { int _pad[${lp64 ? 28 : 29}]; void *_align; } _sifields;
} siginfo_t;
struct sigaction {
  union { __sighandler_t sa_handler; void (*sa_sigaction)(int, siginfo_t *, void *); } __sigaction_handler;
  __sigset_t sa_mask;
  int sa_flags;
  void (*sa_restorer)(void);
};

typedef union { char __size[${lp64 ? 56 : 36}]; long __align; } pthread_attr_t;
typedef union { char __size[${lp64 ? 40 : 24}]; long __align; } pthread_mutex_t;
typedef union { char __size[4]; int __align; } pthread_mutexattr_t;
typedef union { char __size[48]; long long __align; } pthread_cond_t;
typedef union { char __size[4]; int __align; } pthread_condattr_t;
typedef union { char __size[${lp64 ? 56 : 32}]; long __align; } pthread_rwlock_t;
typedef union { char __size[8]; long __align; } pthread_rwlockattr_t;
typedef union { char __size[${lp64 ? 32 : 20}]; long __align; } pthread_barrier_t;
typedef union { char __size[4]; int __align; } pthread_barrierattr_t;
typedef int pthread_once_t;
typedef volatile int pthread_spinlock_t;
typedef union { char __size[${lp64 ? 32 : 16}]; long __align; } sem_t;
typedef struct { unsigned long __bits[1024 / (8 * ${longBytes})]; } cpu_set_t;
typedef struct { int __allocated; int __used; void *__actions; int __pad[16]; } posix_spawn_file_actions_t;
typedef struct {
  short __flags;
  pid_t __pgrp;
  sigset_t __sd;
  sigset_t __ss;
  struct sched_param __sp;
  int __policy;
  int __pad[16];
} posix_spawnattr_t;
`;
  },
};
