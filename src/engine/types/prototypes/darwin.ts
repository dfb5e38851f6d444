// macOS-only entry points of libSystem: errno and assertions as Darwin spells them, the executable path and
// dyld image list, sysctl, Mach time and virtual memory (task_for_pid plus mach_vm_write is macOS's remote
// write), and the signatures where Darwin differs from glibc (ptrace, syscall, strerror_r, shm_open).
import type { PrototypeModule } from './module.js';

export const darwin: PrototypeModule = {
  name: 'darwin',
  library: 'libSystem.B.dylib',
  platforms: ['macos'],
  declarations: `
typedef unsigned int mach_port_t;
typedef mach_port_t task_t, vm_map_t, thread_act_t;
typedef int kern_return_t;
typedef uint64_t mach_vm_address_t, mach_vm_size_t;
typedef uintptr_t vm_offset_t, vm_address_t, vm_size_t;
typedef int vm_prot_t;
typedef unsigned int mach_msg_type_number_t;
typedef char *caddr_t;
struct mach_timebase_info { uint32_t numer; uint32_t denom; };
struct mach_header;

int *__error(void);
_Noreturn void __assert_rtn(const char *func, const char *file, int line, const char *expr);
void __chkstk_darwin(void);
void dyld_stub_binder(void);
size_t __strlcpy_chk(char *dest, const char *src, size_t len, size_t destlen);
size_t __strlcat_chk(char *dest, const char *src, size_t len, size_t destlen);
int strerror_r(int errnum, char *strerrbuf, size_t buflen);
int ptrace(int request, pid_t pid, caddr_t addr, int data);
int syscall(int number, ...);
int shm_open(const char *name, int oflag, ...);
int pthread_setname_np(const char *name);
int sigsetjmp(sigjmp_buf env, int savemask);
int memset_s(void *s, size_t smax, int c, size_t n);
int _NSGetExecutablePath(char *buf, uint32_t *bufsize);
int *_NSGetArgc(void);
char ***_NSGetArgv(void);
char ***_NSGetEnviron(void);
uint32_t _dyld_image_count(void);
const char *_dyld_get_image_name(uint32_t image_index);
const struct mach_header *_dyld_get_image_header(uint32_t image_index);
intptr_t _dyld_get_image_vmaddr_slide(uint32_t image_index);
int sysctl(int *name, u_int namelen, void *oldp, size_t *oldlenp, void *newp, size_t newlen);
int sysctlbyname(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen);
int proc_pidpath(int pid, void *buffer, uint32_t buffersize);
uint64_t mach_absolute_time(void);
kern_return_t mach_timebase_info(struct mach_timebase_info *info);
mach_port_t mach_host_self(void);
mach_port_t mach_thread_self(void);
kern_return_t task_for_pid(mach_port_t target_tport, int pid, mach_port_t *t);
kern_return_t mach_vm_allocate(vm_map_t target, mach_vm_address_t *address, mach_vm_size_t size, int flags);
kern_return_t mach_vm_deallocate(vm_map_t target, mach_vm_address_t address, mach_vm_size_t size);
kern_return_t mach_vm_protect(vm_map_t target_task, mach_vm_address_t address, mach_vm_size_t size,
  int set_maximum, vm_prot_t new_protection);
kern_return_t mach_vm_write(vm_map_t target_task, mach_vm_address_t address, vm_offset_t data,
  mach_msg_type_number_t dataCnt);
kern_return_t mach_vm_read_overwrite(vm_map_t target_task, mach_vm_address_t address, mach_vm_size_t size,
  mach_vm_address_t data, mach_vm_size_t *outsize);
kern_return_t vm_allocate(vm_map_t target_task, vm_address_t *address, vm_size_t size, int flags);
kern_return_t vm_deallocate(vm_map_t target_task, vm_address_t address, vm_size_t size);
kern_return_t vm_protect(vm_map_t target_task, vm_address_t address, vm_size_t size, int set_maximum,
  vm_prot_t new_protection);
`,
};
