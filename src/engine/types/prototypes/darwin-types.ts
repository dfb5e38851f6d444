// The C and POSIX types as macOS's libSystem defines them, where they differ from glibc's: BSD socket
// addresses with a length byte, 16-bit mode_t and nlink_t, 64-bit off_t everywhere, pthread types with a
// signature word. Layouts are x86-64's for LP64 (arm64 differs in va_list and jmp_buf only, both passed by
// pointer); the 64-bit-inode `struct stat` and `struct dirent` are LP64 only.
import type { DataModel } from '../c-parse/index.js';
import type { PrototypeModule } from './module.js';

const lp64Only = (model: DataModel) =>
  model !== 'LP64'
    ? 'struct stat;\nstruct dirent;'
    : `
struct stat {
  dev_t st_dev;
  mode_t st_mode;
  nlink_t st_nlink;
  ino_t st_ino;
  uid_t st_uid;
  gid_t st_gid;
  dev_t st_rdev;
  struct timespec st_atimespec;
  struct timespec st_mtimespec;
  struct timespec st_ctimespec;
  struct timespec st_birthtimespec;
  off_t st_size;
  blkcnt_t st_blocks;
  blksize_t st_blksize;
  uint32_t st_flags;
  uint32_t st_gen;
  int32_t st_lspare;
  int64_t st_qspare[2];
};
struct dirent {
  uint64_t d_ino;
  uint64_t d_seekoff;
  uint16_t d_reclen;
  uint16_t d_namlen;
  uint8_t d_type;
  char d_name[1024];
};`;

export const darwinTypes: PrototypeModule = {
  name: 'darwin-types',
  library: 'libSystem.B.dylib',
  platforms: ['macos'],
  declarations: (model) => {
    const lp64 = model === 'LP64';
    return `
typedef long long off_t;
typedef unsigned short mode_t;
typedef int dev_t;
typedef unsigned short nlink_t;
typedef unsigned long long ino_t;
typedef int blksize_t;
typedef long long blkcnt_t;
typedef unsigned char sa_family_t;
typedef unsigned int nfds_t;
typedef int suseconds_t;
typedef unsigned long clock_t;
typedef int wint_t;
typedef unsigned int wctype_t;
typedef long long fpos_t;
typedef unsigned long long rlim_t;
typedef unsigned int sigset_t;
typedef int idtype_t;
typedef unsigned int u_int;
typedef unsigned int uint;

typedef struct __sFILE FILE;
typedef struct DIR DIR;
${
  lp64
    ? `struct __va_list_tag { unsigned int gp_offset; unsigned int fp_offset; void *overflow_arg_area;
  void *reg_save_area; };
typedef struct __va_list_tag va_list[1];
typedef int jmp_buf[37];
typedef int sigjmp_buf[38];`
    : 'typedef char *va_list;\ntypedef int jmp_buf[18];\ntypedef int sigjmp_buf[19];'
}
typedef union { char __mbstate8[128]; long long _mbstateL; } mbstate_t;
typedef struct { int quot; int rem; } div_t;
typedef struct { long quot; long rem; } ldiv_t;
typedef struct { long long quot; long long rem; } lldiv_t;
typedef struct _xlocale *locale_t;
typedef void *iconv_t;
typedef void (*sig_t)(int);
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
  char *tm_zone;
};
struct timespec { time_t tv_sec; long tv_nsec; };
struct timeval { time_t tv_sec; suseconds_t tv_usec; };
struct timezone { int tz_minuteswest; int tz_dsttime; };
${lp64Only(model)}

struct in_addr { in_addr_t s_addr; };
struct in6_addr { union { uint8_t __u6_addr8[16]; uint16_t __u6_addr16[8]; uint32_t __u6_addr32[4]; } __u6_addr; };
struct sockaddr { uint8_t sa_len; sa_family_t sa_family; char sa_data[14]; };
struct sockaddr_in {
  uint8_t sin_len;
  sa_family_t sin_family;
  in_port_t sin_port;
  struct in_addr sin_addr;
  char sin_zero[8];
};
struct sockaddr_in6 {
  uint8_t sin6_len;
  sa_family_t sin6_family;
  in_port_t sin6_port;
  uint32_t sin6_flowinfo;
  struct in6_addr sin6_addr;
  uint32_t sin6_scope_id;
};
struct sockaddr_un { uint8_t sun_len; sa_family_t sun_family; char sun_path[104]; };
struct sockaddr_storage { uint8_t ss_len; sa_family_t ss_family; char __ss_pad1[6]; int64_t __ss_align;
  char __ss_pad2[112]; };
struct addrinfo {
  int ai_flags;
  int ai_family;
  int ai_socktype;
  int ai_protocol;
  socklen_t ai_addrlen;
  char *ai_canonname;
  struct sockaddr *ai_addr;
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
  int msg_iovlen;
  void *msg_control;
  socklen_t msg_controllen;
  int msg_flags;
};
struct linger { int l_onoff; int l_linger; };
struct pollfd { int fd; short events; short revents; };
typedef struct fd_set { int32_t fds_bits[32]; } fd_set;
struct ifaddrs {
  struct ifaddrs *ifa_next;
  char *ifa_name;
  unsigned int ifa_flags;
  struct sockaddr *ifa_addr;
  struct sockaddr *ifa_netmask;
  struct sockaddr *ifa_dstaddr;
  void *ifa_data;
};

struct utsname { char sysname[256]; char nodename[256]; char release[256]; char version[256]; char machine[256]; };
struct passwd {
  char *pw_name;
  char *pw_passwd;
  uid_t pw_uid;
  gid_t pw_gid;
  time_t pw_change;
  char *pw_class;
  char *pw_gecos;
  char *pw_dir;
  char *pw_shell;
  time_t pw_expire;
};
struct group { char *gr_name; char *gr_passwd; gid_t gr_gid; char **gr_mem; };
struct option { const char *name; int has_arg; int *flag; int val; };
typedef struct dl_info { const char *dli_fname; void *dli_fbase; const char *dli_sname; void *dli_saddr; } Dl_info;
struct rlimit { rlim_t rlim_cur; rlim_t rlim_max; };
struct rusage;
struct tms;
struct sched_param { int sched_priority; char __opaque[4]; };
struct termios;
struct statfs;
struct statvfs;
struct utimbuf { time_t actime; time_t modtime; };

typedef struct __siginfo siginfo_t;
struct sigaction {
  union { void (*__sa_handler)(int); void (*__sa_sigaction)(int, struct __siginfo *, void *); } __sigaction_u;
  sigset_t sa_mask;
  int sa_flags;
};

typedef struct _opaque_pthread_t *pthread_t;
typedef unsigned long pthread_key_t;
typedef struct _opaque_pthread_attr_t { long __sig; char __opaque[${lp64 ? 56 : 36}]; } pthread_attr_t;
typedef struct _opaque_pthread_mutex_t { long __sig; char __opaque[${lp64 ? 56 : 40}]; } pthread_mutex_t;
typedef struct _opaque_pthread_mutexattr_t { long __sig; char __opaque[8]; } pthread_mutexattr_t;
typedef struct _opaque_pthread_cond_t { long __sig; char __opaque[${lp64 ? 40 : 24}]; } pthread_cond_t;
typedef struct _opaque_pthread_condattr_t { long __sig; char __opaque[${lp64 ? 8 : 4}]; } pthread_condattr_t;
typedef struct _opaque_pthread_rwlock_t { long __sig; char __opaque[${lp64 ? 192 : 124}]; } pthread_rwlock_t;
typedef struct _opaque_pthread_rwlockattr_t { long __sig; char __opaque[${lp64 ? 16 : 12}]; }
  pthread_rwlockattr_t;
typedef struct _opaque_pthread_once_t { long __sig; char __opaque[${lp64 ? 8 : 4}]; } pthread_once_t;
typedef int sem_t;
typedef void *posix_spawn_file_actions_t;
typedef void *posix_spawnattr_t;
`;
  },
};
