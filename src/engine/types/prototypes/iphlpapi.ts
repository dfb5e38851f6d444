// iphlpapi: network configuration and connection tables (iphlpapi.h), the discovery step of many implants.
import type { PrototypeModule } from './module.js';

export const iphlpapi: PrototypeModule = {
  name: 'iphlpapi',
  library: 'iphlpapi.dll',
  platforms: ['windows'],
  declarations: `
typedef struct _IP_ADAPTER_INFO *PIP_ADAPTER_INFO;
typedef struct _IP_ADAPTER_ADDRESSES_LH *PIP_ADAPTER_ADDRESSES;
typedef struct _MIB_IPNETTABLE *PMIB_IPNETTABLE;
typedef struct _MIB_TCPTABLE *PMIB_TCPTABLE;
typedef struct _MIB_UDPTABLE *PMIB_UDPTABLE;
typedef struct _MIB_IPFORWARDTABLE *PMIB_IPFORWARDTABLE;
typedef struct _MIB_IFTABLE *PMIB_IFTABLE;
typedef struct _FIXED_INFO_W2KSP1 *PFIXED_INFO;
typedef enum _TCP_TABLE_CLASS {
  TCP_TABLE_BASIC_LISTENER, TCP_TABLE_BASIC_CONNECTIONS, TCP_TABLE_BASIC_ALL, TCP_TABLE_OWNER_PID_LISTENER,
  TCP_TABLE_OWNER_PID_CONNECTIONS, TCP_TABLE_OWNER_PID_ALL, TCP_TABLE_OWNER_MODULE_LISTENER,
  TCP_TABLE_OWNER_MODULE_CONNECTIONS, TCP_TABLE_OWNER_MODULE_ALL
} TCP_TABLE_CLASS;
typedef enum _UDP_TABLE_CLASS { UDP_TABLE_BASIC, UDP_TABLE_OWNER_PID, UDP_TABLE_OWNER_MODULE } UDP_TABLE_CLASS;
typedef ULONG IPAddr;

ULONG WINAPI GetAdaptersInfo(PIP_ADAPTER_INFO AdapterInfo, PULONG SizePointer);
ULONG WINAPI GetAdaptersAddresses(ULONG Family, ULONG Flags, PVOID Reserved,
  PIP_ADAPTER_ADDRESSES AdapterAddresses, PULONG SizePointer);
DWORD WINAPI GetNetworkParams(PFIXED_INFO pFixedInfo, PULONG pOutBufLen);
ULONG WINAPI GetIpNetTable(PMIB_IPNETTABLE IpNetTable, PULONG SizePointer, BOOL Order);
ULONG WINAPI GetTcpTable(PMIB_TCPTABLE TcpTable, PULONG SizePointer, BOOL Order);
ULONG WINAPI GetUdpTable(PMIB_UDPTABLE UdpTable, PULONG SizePointer, BOOL Order);
DWORD WINAPI GetExtendedTcpTable(PVOID pTcpTable, PDWORD pdwSize, BOOL bOrder, ULONG ulAf,
  TCP_TABLE_CLASS TableClass, ULONG Reserved);
DWORD WINAPI GetExtendedUdpTable(PVOID pUdpTable, PDWORD pdwSize, BOOL bOrder, ULONG ulAf,
  UDP_TABLE_CLASS TableClass, ULONG Reserved);
DWORD WINAPI GetIpForwardTable(PMIB_IPFORWARDTABLE pIpForwardTable, PULONG pdwSize, BOOL bOrder);
DWORD WINAPI GetIfTable(PMIB_IFTABLE pIfTable, PULONG pdwSize, BOOL bOrder);
DWORD WINAPI SendARP(IPAddr DestIP, IPAddr SrcIP, PVOID pMacAddr, PULONG PhyAddrLen);
`,
};
