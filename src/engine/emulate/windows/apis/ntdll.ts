// ntdll basics: the memory helpers and version query programs call directly, closing handles, and the
// process-information query anti-debugging code asks (no debugger: port 0).
import { stdcall, type ApiTable } from './api.js';

const STATUS = { SUCCESS: 0, INVALID_HANDLE: 0xc000_0008, INVALID_INFO_CLASS: 0xc000_0003 };
/** NtQueryInformationProcess classes answered: ProcessBasicInformation, ProcessDebugPort, ProcessDebugFlags. */
const INFO = { BASIC: 0, DEBUG_PORT: 7, DEBUG_FLAGS: 0x1f };

export const NTDLL: ApiTable = {
  RtlZeroMemory: stdcall(2, (c) => {
    c.sys.cpu.write(c.arg(0), new Uint8Array(Math.min(Number(c.arg(1)), c.sys.limits.allocation)));
    return 0;
  }),
  RtlFillMemory: stdcall(3, (c) => {
    c.sys.cpu.write(
      c.arg(0),
      new Uint8Array(Math.min(Number(c.arg(1)), c.sys.limits.allocation)).fill(c.u32(2) & 0xff),
    );
    return 0;
  }),
  RtlMoveMemory: stdcall(3, (c) => {
    c.sys.cpu.write(c.arg(0), c.sys.bytes(c.arg(1), Number(c.arg(2))) ?? new Uint8Array());
    return 0;
  }),
  RtlGetLastWin32Error: stdcall(0, (c) => c.sys.lastError),
  NtClose: stdcall(1, (c) => (c.sys.handles.delete(c.arg(0)) ? STATUS.SUCCESS : STATUS.INVALID_HANDLE)),
  NtDelayExecution: stdcall(2, (c) => {
    // A relative interval in 100 ns units is negative.
    const interval = c.sys.bytes(c.arg(1), 8);
    if (interval) c.sys.sleep(Number(-new DataView(interval.buffer).getBigInt64(0, true) / 10_000n));
    return STATUS.SUCCESS;
  }),
  RtlGetVersion: stdcall(1, (c) => {
    // RTL_OSVERSIONINFOW: its size first, then major 10, minor 0, build 19045, platform 2 (NT).
    [10, 0, 19045, 2].forEach((v, i) => c.sys.writeInt(c.arg(0) + BigInt(4 + 4 * i), v, 4));
    return STATUS.SUCCESS;
  }),
  NtQueryInformationProcess: stdcall(5, (c) => {
    const info = c.u32(1);
    if (info === INFO.DEBUG_PORT) c.sys.writePointer(c.arg(2), 0n);
    else if (info === INFO.DEBUG_FLAGS) c.sys.writeInt(c.arg(2), 1, 4);
    else if (info === INFO.BASIC) {
      // PROCESS_BASIC_INFORMATION: exit status, PEB, affinity, priority, pid, parent pid (a word each).
      const w = BigInt(c.sys.abi.pointer);
      c.sys.writePointer(c.arg(2) + w, c.sys.peb);
      c.sys.writePointer(c.arg(2) + 4n * w, BigInt(c.sys.pid));
      c.sys.writePointer(c.arg(2) + 5n * w, 4n);
    } else return STATUS.INVALID_INFO_CLASS;
    if (c.arg(4)) c.sys.writeInt(c.arg(4), c.u32(3), 4);
    return STATUS.SUCCESS;
  }),
};
