// The Windows SDK's base types (minwindef.h, winnt.h, basetsd.h, minwinbase.h): the typedef names every
// Win32 prototype is written in, kept as names so prototypes read as the documentation does. Handles are
// STRICT (`struct HWND__ *`), so a window is not a module. Pointer-sized names go through intptr_t and
// uintptr_t, so one text serves Win32 and Win64.
import type { PrototypeModule } from './module.js';

export const windowsTypes: PrototypeModule = {
  name: 'windows-types',
  library: 'windows',
  platforms: ['windows'],
  declarations: `
typedef unsigned short wchar_t;

typedef void VOID;
typedef char CHAR, CCHAR;
typedef unsigned char UCHAR, BYTE, BOOLEAN;
typedef short SHORT;
typedef unsigned short USHORT, WORD;
typedef int INT, BOOL;
typedef unsigned int UINT;
typedef long LONG;
typedef unsigned long ULONG, DWORD;
typedef float FLOAT;
typedef wchar_t WCHAR;
typedef __int64 LONGLONG, LONG64, INT64;
typedef unsigned __int64 ULONGLONG, DWORDLONG, DWORD64, ULONG64, UINT64;
typedef signed char INT8;
typedef unsigned char UINT8;
typedef short INT16;
typedef unsigned short UINT16;
typedef int INT32, LONG32;
typedef unsigned int UINT32, ULONG32, DWORD32;
typedef intptr_t INT_PTR, LONG_PTR;
typedef uintptr_t UINT_PTR, ULONG_PTR;
typedef ULONG_PTR SIZE_T, DWORD_PTR;
typedef LONG_PTR SSIZE_T;

typedef BYTE *PBYTE, *LPBYTE;
typedef UCHAR *PUCHAR;
typedef BOOLEAN *PBOOLEAN;
typedef WORD *PWORD, *LPWORD;
typedef USHORT *PUSHORT;
typedef INT *PINT, *LPINT;
typedef BOOL *PBOOL, *LPBOOL;
typedef UINT *PUINT, *LPUINT;
typedef LONG *PLONG, *LPLONG;
typedef ULONG *PULONG;
typedef DWORD *PDWORD, *LPDWORD;
typedef LONGLONG *PLONGLONG;
typedef ULONGLONG *PULONGLONG;
typedef DWORD64 *PDWORD64;
typedef ULONG64 *PULONG64;
typedef SIZE_T *PSIZE_T;
typedef ULONG_PTR *PULONG_PTR;
typedef DWORD_PTR *PDWORD_PTR;
typedef LONG_PTR *PLONG_PTR;

typedef void *PVOID, *LPVOID;
typedef const void *LPCVOID, *PCVOID;
typedef CHAR *PCHAR, *PSTR, *LPSTR, *PCH, *LPCH;
typedef const CHAR *PCSTR, *LPCSTR, *PCCH, *LPCCH, *PCNZCH;
typedef WCHAR *PWCHAR, *PWSTR, *LPWSTR, *PWCH, *LPWCH;
typedef const WCHAR *PCWSTR, *LPCWSTR, *PCWCH, *LPCWCH, *PCNZWCH;
typedef PSTR *PZPSTR;
typedef const CHAR *PCZZSTR;
typedef const WCHAR *PCZZWSTR;
typedef PWSTR *PZPWSTR;

typedef void *HANDLE;
typedef HANDLE *PHANDLE, *LPHANDLE;
typedef HANDLE HGLOBAL, HLOCAL, HGDIOBJ;
typedef struct HINSTANCE__ *HINSTANCE;
typedef HINSTANCE HMODULE;
typedef struct HWND__ *HWND;
typedef struct HKEY__ *HKEY;
typedef HKEY *PHKEY;
typedef struct HRSRC__ *HRSRC;
typedef struct HDC__ *HDC;
typedef struct HICON__ *HICON;
typedef HICON HCURSOR;
typedef struct HMENU__ *HMENU;
typedef struct HBRUSH__ *HBRUSH;
typedef struct HBITMAP__ *HBITMAP;
typedef struct HFONT__ *HFONT;
typedef struct HHOOK__ *HHOOK;
typedef struct HKL__ *HKL;
typedef struct HDESK__ *HDESK;
typedef struct HWINSTA__ *HWINSTA;
typedef struct HMONITOR__ *HMONITOR;
typedef struct HDROP__ *HDROP;

typedef LONG NTSTATUS, HRESULT, LSTATUS;
typedef NTSTATUS *PNTSTATUS;
typedef UINT_PTR WPARAM;
typedef LONG_PTR LPARAM, LRESULT;
typedef WORD ATOM, LANGID;
typedef DWORD COLORREF, LCID, LCTYPE, ACCESS_MASK, SECURITY_INFORMATION, EXECUTION_STATE;
typedef ACCESS_MASK REGSAM;
typedef ACCESS_MASK *PACCESS_MASK;
typedef PVOID PSID, PSECURITY_DESCRIPTOR;

typedef INT_PTR (WINAPI *FARPROC)(void);
typedef INT_PTR (WINAPI *NEARPROC)(void);
typedef INT_PTR (WINAPI *PROC)(void);

enum { MAX_PATH = 260, EXCEPTION_MAXIMUM_PARAMETERS = 15 };

typedef struct _GUID {
  unsigned long Data1;
  unsigned short Data2;
  unsigned short Data3;
  unsigned char Data4[8];
} GUID, IID, CLSID;
typedef GUID *LPGUID;
typedef GUID *LPCLSID, *LPIID;
typedef const GUID *LPCGUID, *REFGUID, *REFIID, *REFCLSID;

typedef union _LARGE_INTEGER {
  struct { DWORD LowPart; LONG HighPart; };
  struct { DWORD LowPart; LONG HighPart; } u;
  LONGLONG QuadPart;
} LARGE_INTEGER, *PLARGE_INTEGER;

typedef union _ULARGE_INTEGER {
  struct { DWORD LowPart; DWORD HighPart; };
  struct { DWORD LowPart; DWORD HighPart; } u;
  ULONGLONG QuadPart;
} ULARGE_INTEGER, *PULARGE_INTEGER;

typedef struct _LUID { DWORD LowPart; LONG HighPart; } LUID, *PLUID;

typedef struct _FILETIME { DWORD dwLowDateTime; DWORD dwHighDateTime; } FILETIME, *PFILETIME, *LPFILETIME;

typedef struct _SYSTEMTIME {
  WORD wYear;
  WORD wMonth;
  WORD wDayOfWeek;
  WORD wDay;
  WORD wHour;
  WORD wMinute;
  WORD wSecond;
  WORD wMilliseconds;
} SYSTEMTIME, *PSYSTEMTIME, *LPSYSTEMTIME;

typedef struct _SECURITY_ATTRIBUTES {
  DWORD nLength;
  LPVOID lpSecurityDescriptor;
  BOOL bInheritHandle;
} SECURITY_ATTRIBUTES, *PSECURITY_ATTRIBUTES, *LPSECURITY_ATTRIBUTES;

typedef struct _OVERLAPPED {
  ULONG_PTR Internal;
  ULONG_PTR InternalHigh;
  union {
    struct { DWORD Offset; DWORD OffsetHigh; };
    PVOID Pointer;
  };
  HANDLE hEvent;
} OVERLAPPED, *LPOVERLAPPED;

typedef struct _LIST_ENTRY { struct _LIST_ENTRY *Flink; struct _LIST_ENTRY *Blink; } LIST_ENTRY, *PLIST_ENTRY;

typedef struct tagPOINT { LONG x; LONG y; } POINT, *PPOINT, *LPPOINT;
typedef struct tagRECT { LONG left; LONG top; LONG right; LONG bottom; } RECT, *PRECT, *LPRECT;
typedef const RECT *LPCRECT;
typedef struct tagSIZE { LONG cx; LONG cy; } SIZE, *PSIZE, *LPSIZE;

typedef struct IUnknown IUnknown, *LPUNKNOWN;

typedef struct _CONTEXT CONTEXT, *PCONTEXT, *LPCONTEXT;

typedef struct _EXCEPTION_RECORD {
  DWORD ExceptionCode;
  DWORD ExceptionFlags;
  struct _EXCEPTION_RECORD *ExceptionRecord;
  PVOID ExceptionAddress;
  DWORD NumberParameters;
  ULONG_PTR ExceptionInformation[EXCEPTION_MAXIMUM_PARAMETERS];
} EXCEPTION_RECORD, *PEXCEPTION_RECORD;

typedef struct _EXCEPTION_POINTERS {
  PEXCEPTION_RECORD ExceptionRecord;
  PCONTEXT ContextRecord;
} EXCEPTION_POINTERS, *PEXCEPTION_POINTERS, *LPEXCEPTION_POINTERS;

typedef enum _EXCEPTION_DISPOSITION {
  ExceptionContinueExecution,
  ExceptionContinueSearch,
  ExceptionNestedException,
  ExceptionCollidedUnwind
} EXCEPTION_DISPOSITION;

typedef struct _RTL_CRITICAL_SECTION {
  struct _RTL_CRITICAL_SECTION_DEBUG *DebugInfo;
  LONG LockCount;
  LONG RecursionCount;
  HANDLE OwningThread;
  HANDLE LockSemaphore;
  ULONG_PTR SpinCount;
} RTL_CRITICAL_SECTION, CRITICAL_SECTION, *PRTL_CRITICAL_SECTION, *PCRITICAL_SECTION, *LPCRITICAL_SECTION;

typedef struct _RTL_SRWLOCK { PVOID Ptr; } RTL_SRWLOCK, SRWLOCK, *PSRWLOCK;
typedef struct _RTL_CONDITION_VARIABLE { PVOID Ptr; } CONDITION_VARIABLE, *PCONDITION_VARIABLE;
typedef union _RTL_RUN_ONCE { PVOID Ptr; } INIT_ONCE, *PINIT_ONCE, *LPINIT_ONCE;

typedef DWORD (WINAPI *PTHREAD_START_ROUTINE)(LPVOID lpThreadParameter);
typedef PTHREAD_START_ROUTINE LPTHREAD_START_ROUTINE;
typedef VOID (WINAPI *LPOVERLAPPED_COMPLETION_ROUTINE)(DWORD dwErrorCode, DWORD dwNumberOfBytesTransfered,
  LPOVERLAPPED lpOverlapped);
typedef VOID (NTAPI *PAPCFUNC)(ULONG_PTR Parameter);
typedef LONG (WINAPI *PTOP_LEVEL_EXCEPTION_FILTER)(struct _EXCEPTION_POINTERS *ExceptionInfo);
typedef PTOP_LEVEL_EXCEPTION_FILTER LPTOP_LEVEL_EXCEPTION_FILTER;
typedef LONG (NTAPI *PVECTORED_EXCEPTION_HANDLER)(struct _EXCEPTION_POINTERS *ExceptionInfo);
typedef EXCEPTION_DISPOSITION NTAPI EXCEPTION_ROUTINE(struct _EXCEPTION_RECORD *ExceptionRecord,
  PVOID EstablisherFrame, struct _CONTEXT *ContextRecord, PVOID DispatcherContext);
typedef EXCEPTION_ROUTINE *PEXCEPTION_ROUTINE;
`,
};
