// ws2_32: Winsock 2 (winsock2.h, ws2tcpip.h). The Berkeley names (socket, connect, send …) are Winsock's
// here, with SOCKET handles and `char *` buffers; the POSIX modules hold the Unix ones.
import type { DataModel } from '../c-parse/index.js';
import type { PrototypeModule } from './module.js';

// Win64 moved the pointer and the two counts ahead of the strings (400 bytes on Win32, 408 on Win64).
const wsadata = (model: DataModel) =>
  model === 'ILP32'
    ? `typedef struct WSAData {
  WORD wVersion;
  WORD wHighVersion;
  char szDescription[WSADESCRIPTION_LEN + 1];
  char szSystemStatus[WSASYS_STATUS_LEN + 1];
  unsigned short iMaxSockets;
  unsigned short iMaxUdpDg;
  char *lpVendorInfo;
} WSADATA, *LPWSADATA;
typedef struct servent { char *s_name; char **s_aliases; short s_port; char *s_proto; } SERVENT;`
    : `typedef struct WSAData {
  WORD wVersion;
  WORD wHighVersion;
  unsigned short iMaxSockets;
  unsigned short iMaxUdpDg;
  char *lpVendorInfo;
  char szDescription[WSADESCRIPTION_LEN + 1];
  char szSystemStatus[WSASYS_STATUS_LEN + 1];
} WSADATA, *LPWSADATA;
typedef struct servent { char *s_name; char **s_aliases; char *s_proto; short s_port; } SERVENT;`;

export const ws2_32: PrototypeModule = {
  name: 'ws2_32',
  library: 'ws2_32.dll',
  platforms: ['windows'],
  declarations: (model) => `
typedef unsigned char u_char;
typedef unsigned short u_short;
typedef unsigned int u_int;
typedef unsigned long u_long;
typedef UINT_PTR SOCKET;
typedef int socklen_t;
typedef unsigned int GROUP;
typedef HANDLE WSAEVENT;
typedef OVERLAPPED WSAOVERLAPPED, *LPWSAOVERLAPPED;
typedef USHORT ADDRESS_FAMILY;
enum { WSADESCRIPTION_LEN = 256, WSASYS_STATUS_LEN = 128, FD_SETSIZE = 64, FD_MAX_EVENTS = 10 };

${wsadata(model)}

typedef struct in_addr {
  union {
    struct { u_char s_b1; u_char s_b2; u_char s_b3; u_char s_b4; } S_un_b;
    struct { u_short s_w1; u_short s_w2; } S_un_w;
    u_long S_addr;
  } S_un;
} IN_ADDR, *PIN_ADDR, *LPIN_ADDR;
typedef struct in6_addr { union { u_char Byte[16]; u_short Word[8]; } u; } IN6_ADDR, *PIN6_ADDR;
typedef struct sockaddr { ADDRESS_FAMILY sa_family; char sa_data[14]; } SOCKADDR, *PSOCKADDR, *LPSOCKADDR;
typedef struct sockaddr_in {
  ADDRESS_FAMILY sin_family;
  u_short sin_port;
  struct in_addr sin_addr;
  char sin_zero[8];
} SOCKADDR_IN, *PSOCKADDR_IN;
typedef struct sockaddr_in6 {
  ADDRESS_FAMILY sin6_family;
  u_short sin6_port;
  u_long sin6_flowinfo;
  struct in6_addr sin6_addr;
  u_long sin6_scope_id;
} SOCKADDR_IN6, *PSOCKADDR_IN6;
typedef struct sockaddr_storage {
  ADDRESS_FAMILY ss_family;
  char __ss_pad1[6];
  __int64 __ss_align;
  char __ss_pad2[112];
} SOCKADDR_STORAGE, *PSOCKADDR_STORAGE;
typedef struct hostent {
  char *h_name;
  char **h_aliases;
  short h_addrtype;
  short h_length;
  char **h_addr_list;
} HOSTENT, *PHOSTENT, *LPHOSTENT;
typedef struct addrinfo {
  int ai_flags;
  int ai_family;
  int ai_socktype;
  int ai_protocol;
  size_t ai_addrlen;
  char *ai_canonname;
  struct sockaddr *ai_addr;
  struct addrinfo *ai_next;
} ADDRINFOA, *PADDRINFOA;
typedef struct addrinfoW {
  int ai_flags;
  int ai_family;
  int ai_socktype;
  int ai_protocol;
  size_t ai_addrlen;
  PWSTR ai_canonname;
  struct sockaddr *ai_addr;
  struct addrinfoW *ai_next;
} ADDRINFOW, *PADDRINFOW;
typedef struct fd_set { u_int fd_count; SOCKET fd_array[FD_SETSIZE]; } fd_set, FD_SET, *PFD_SET;
typedef struct timeval { long tv_sec; long tv_usec; } TIMEVAL, *PTIMEVAL;
typedef struct _WSABUF { ULONG len; CHAR *buf; } WSABUF, *LPWSABUF;
typedef struct _WSANETWORKEVENTS { long lNetworkEvents; int iErrorCode[FD_MAX_EVENTS]; }
  WSANETWORKEVENTS, *LPWSANETWORKEVENTS;
typedef struct pollfd { SOCKET fd; SHORT events; SHORT revents; } WSAPOLLFD, *LPWSAPOLLFD;
typedef struct _WSAPROTOCOL_INFOA WSAPROTOCOL_INFOA, *LPWSAPROTOCOL_INFOA;
typedef struct _WSAPROTOCOL_INFOW WSAPROTOCOL_INFOW, *LPWSAPROTOCOL_INFOW;
typedef struct _QualityOfService QOS, *LPQOS;
typedef void (CALLBACK *LPWSAOVERLAPPED_COMPLETION_ROUTINE)(DWORD dwError, DWORD cbTransferred,
  LPWSAOVERLAPPED lpOverlapped, DWORD dwFlags);

int WSAAPI WSAStartup(WORD wVersionRequested, LPWSADATA lpWSAData);
int WSAAPI WSACleanup(void);
int WSAAPI WSAGetLastError(void);
void WSAAPI WSASetLastError(int iError);
SOCKET WSAAPI socket(int af, int type, int protocol);
int WSAAPI closesocket(SOCKET s);
int WSAAPI bind(SOCKET s, const struct sockaddr *name, int namelen);
int WSAAPI listen(SOCKET s, int backlog);
SOCKET WSAAPI accept(SOCKET s, struct sockaddr *addr, int *addrlen);
int WSAAPI connect(SOCKET s, const struct sockaddr *name, int namelen);
int WSAAPI send(SOCKET s, const char *buf, int len, int flags);
int WSAAPI recv(SOCKET s, char *buf, int len, int flags);
int WSAAPI sendto(SOCKET s, const char *buf, int len, int flags, const struct sockaddr *to, int tolen);
int WSAAPI recvfrom(SOCKET s, char *buf, int len, int flags, struct sockaddr *from, int *fromlen);
int WSAAPI shutdown(SOCKET s, int how);
int WSAAPI select(int nfds, fd_set *readfds, fd_set *writefds, fd_set *exceptfds, const struct timeval *timeout);
int WSAAPI __WSAFDIsSet(SOCKET fd, fd_set *set);
int WSAAPI ioctlsocket(SOCKET s, long cmd, u_long *argp);
int WSAAPI setsockopt(SOCKET s, int level, int optname, const char *optval, int optlen);
int WSAAPI getsockopt(SOCKET s, int level, int optname, char *optval, int *optlen);
int WSAAPI getsockname(SOCKET s, struct sockaddr *name, int *namelen);
int WSAAPI getpeername(SOCKET s, struct sockaddr *name, int *namelen);
struct hostent *WSAAPI gethostbyname(const char *name);
struct hostent *WSAAPI gethostbyaddr(const char *addr, int len, int type);
int WSAAPI gethostname(char *name, int namelen);
int WSAAPI GetHostNameW(PWSTR name, int namelen);
struct servent *WSAAPI getservbyname(const char *name, const char *proto);
struct servent *WSAAPI getservbyport(int port, const char *proto);
INT WSAAPI getaddrinfo(PCSTR pNodeName, PCSTR pServiceName, const ADDRINFOA *pHints, PADDRINFOA *ppResult);
INT WSAAPI GetAddrInfoW(PCWSTR pNodeName, PCWSTR pServiceName, const ADDRINFOW *pHints, PADDRINFOW *ppResult);
VOID WSAAPI freeaddrinfo(PADDRINFOA pAddrInfo);
VOID WSAAPI FreeAddrInfoW(PADDRINFOW pAddrInfo);
INT WSAAPI getnameinfo(const SOCKADDR *pSockaddr, socklen_t SockaddrLength, PCHAR pNodeBuffer,
  DWORD NodeBufferSize, PCHAR pServiceBuffer, DWORD ServiceBufferSize, INT Flags);
INT WSAAPI GetNameInfoW(const SOCKADDR *pSockaddr, socklen_t SockaddrLength, PWCHAR pNodeBuffer,
  DWORD NodeBufferSize, PWCHAR pServiceBuffer, DWORD ServiceBufferSize, INT Flags);
unsigned long WSAAPI inet_addr(const char *cp);
char *WSAAPI inet_ntoa(struct in_addr in);
INT WSAAPI inet_pton(INT Family, PCSTR pszAddrString, PVOID pAddrBuf);
PCSTR WSAAPI inet_ntop(INT Family, const VOID *pAddr, PSTR pStringBuf, size_t StringBufSize);
INT WSAAPI InetPtonW(INT Family, PCWSTR pszAddrString, PVOID pAddrBuf);
PCWSTR WSAAPI InetNtopW(INT Family, const VOID *pAddr, PWSTR pStringBuf, size_t StringBufSize);
u_short WSAAPI htons(u_short hostshort);
u_long WSAAPI htonl(u_long hostlong);
u_short WSAAPI ntohs(u_short netshort);
u_long WSAAPI ntohl(u_long netlong);

SOCKET WSAAPI WSASocketA(int af, int type, int protocol, LPWSAPROTOCOL_INFOA lpProtocolInfo, GROUP g,
  DWORD dwFlags);
SOCKET WSAAPI WSASocketW(int af, int type, int protocol, LPWSAPROTOCOL_INFOW lpProtocolInfo, GROUP g,
  DWORD dwFlags);
int WSAAPI WSAConnect(SOCKET s, const struct sockaddr *name, int namelen, LPWSABUF lpCallerData,
  LPWSABUF lpCalleeData, LPQOS lpSQOS, LPQOS lpGQOS);
SOCKET WSAAPI WSAAccept(SOCKET s, struct sockaddr *addr, LPINT addrlen, PVOID lpfnCondition,
  DWORD_PTR dwCallbackData);
int WSAAPI WSASend(SOCKET s, LPWSABUF lpBuffers, DWORD dwBufferCount, LPDWORD lpNumberOfBytesSent, DWORD dwFlags,
  LPWSAOVERLAPPED lpOverlapped, LPWSAOVERLAPPED_COMPLETION_ROUTINE lpCompletionRoutine);
int WSAAPI WSARecv(SOCKET s, LPWSABUF lpBuffers, DWORD dwBufferCount, LPDWORD lpNumberOfBytesRecvd,
  LPDWORD lpFlags, LPWSAOVERLAPPED lpOverlapped, LPWSAOVERLAPPED_COMPLETION_ROUTINE lpCompletionRoutine);
int WSAAPI WSASendTo(SOCKET s, LPWSABUF lpBuffers, DWORD dwBufferCount, LPDWORD lpNumberOfBytesSent,
  DWORD dwFlags, const struct sockaddr *lpTo, int iTolen, LPWSAOVERLAPPED lpOverlapped,
  LPWSAOVERLAPPED_COMPLETION_ROUTINE lpCompletionRoutine);
int WSAAPI WSARecvFrom(SOCKET s, LPWSABUF lpBuffers, DWORD dwBufferCount, LPDWORD lpNumberOfBytesRecvd,
  LPDWORD lpFlags, struct sockaddr *lpFrom, LPINT lpFromlen, LPWSAOVERLAPPED lpOverlapped,
  LPWSAOVERLAPPED_COMPLETION_ROUTINE lpCompletionRoutine);
int WSAAPI WSAIoctl(SOCKET s, DWORD dwIoControlCode, LPVOID lpvInBuffer, DWORD cbInBuffer, LPVOID lpvOutBuffer,
  DWORD cbOutBuffer, LPDWORD lpcbBytesReturned, LPWSAOVERLAPPED lpOverlapped,
  LPWSAOVERLAPPED_COMPLETION_ROUTINE lpCompletionRoutine);
BOOL WSAAPI WSAGetOverlappedResult(SOCKET s, LPWSAOVERLAPPED lpOverlapped, LPDWORD lpcbTransfer, BOOL fWait,
  LPDWORD lpdwFlags);
WSAEVENT WSAAPI WSACreateEvent(void);
BOOL WSAAPI WSACloseEvent(WSAEVENT hEvent);
BOOL WSAAPI WSASetEvent(WSAEVENT hEvent);
BOOL WSAAPI WSAResetEvent(WSAEVENT hEvent);
int WSAAPI WSAEventSelect(SOCKET s, WSAEVENT hEventObject, long lNetworkEvents);
DWORD WSAAPI WSAWaitForMultipleEvents(DWORD cEvents, const WSAEVENT *lphEvents, BOOL fWaitAll, DWORD dwTimeout,
  BOOL fAlertable);
int WSAAPI WSAEnumNetworkEvents(SOCKET s, WSAEVENT hEventObject, LPWSANETWORKEVENTS lpNetworkEvents);
int WSAAPI WSAAsyncSelect(SOCKET s, HWND hWnd, u_int wMsg, long lEvent);
int WSAAPI WSAPoll(LPWSAPOLLFD fdArray, ULONG fds, INT timeout);
INT WSAAPI WSAAddressToStringA(LPSOCKADDR lpsaAddress, DWORD dwAddressLength,
  LPWSAPROTOCOL_INFOA lpProtocolInfo, LPSTR lpszAddressString, LPDWORD lpdwAddressStringLength);
INT WSAAPI WSAAddressToStringW(LPSOCKADDR lpsaAddress, DWORD dwAddressLength,
  LPWSAPROTOCOL_INFOW lpProtocolInfo, LPWSTR lpszAddressString, LPDWORD lpdwAddressStringLength);
INT WSAAPI WSAStringToAddressA(LPSTR AddressString, INT AddressFamily, LPWSAPROTOCOL_INFOA lpProtocolInfo,
  LPSOCKADDR lpAddress, LPINT lpAddressLength);
INT WSAAPI WSAStringToAddressW(LPWSTR AddressString, INT AddressFamily, LPWSAPROTOCOL_INFOW lpProtocolInfo,
  LPSOCKADDR lpAddress, LPINT lpAddressLength);
int WSAAPI WSADuplicateSocketA(SOCKET s, DWORD dwProcessId, LPWSAPROTOCOL_INFOA lpProtocolInfo);
int WSAAPI WSADuplicateSocketW(SOCKET s, DWORD dwProcessId, LPWSAPROTOCOL_INFOW lpProtocolInfo);
`,
};
