// Texts of the AnalysesDynamicExecution operations: what the sample did when Binlens ran it in its emulator.
import { HIDDEN_IS_MISSING, type OperationDoc } from './operation-doc.js';

const RUN = [
  'The sample runs in an emulator (Unicorn, in a process of its own) when the analysis was created with',
  '`analysis_config.sandbox_config.enabled` (its `command_line_args` are its arguments): nothing it does',
  'reaches a real file, registry or network. Windows PE for x86 and x86-64 (its imports answered by',
  'handlers of the system DLLs, over a virtual disk and registry), and Linux ELF for x86-64, i386, AArch64,',
  "ARM and MIPS (both byte orders), static or dynamically linked (through the machine's C library for that",
  'CPU), under a virtual kernel. Programs it starts are run after it, in the same world.',
].join('\n');
const NOT_THERE =
  'Without the sandbox asked for: 409 saying how to ask. While the run is `PENDING`, or when it could not run ' +
  `(\`ERROR\`): 409 with the reason. ${HIDDEN_IS_MISSING}`;

export const dynamicExecutionDocs = {
  getDynamicExecutionStatus: {
    summary: "Get the status of an analysis's dynamic execution",
    description: [
      RUN,
      '',
      '`status`: `PENDING` (queued or running), `SUCCESS` (the views below have its results) or `ERROR` (it',
      'could not run; the other views say why). Without the sandbox asked for: 409 saying how to ask.',
      '',
      '**Binlens extension:** once the run has ended, `stop` says why: `exit` (with the status), or the bound it',
      'reached — `instructions`, `api-calls`, `time` (BINLENS_SANDBOX_SECONDS, 60 by default), `memory` — or',
      '`fault` (the address and instruction).',
      HIDDEN_IS_MISSING,
    ].join('\n'),
  },
  getNetworkOverview: {
    summary: 'Get the network activity of the dynamic execution',
    description: [
      RUN,
      '',
      'Each host name the sample looked up, with the address it got. The virtual network answers every',
      'question with an address of the documentation range 192.0.2.0/24, so `metadata` (country and AS of',
      `the addresses) is empty. ${NOT_THERE}`,
    ].join('\n'),
  },
  getProcessDumps: {
    summary: 'List the memory dumps of the dynamic execution',
    description: [
      RUN,
      '',
      'Code the run wrote and then executed (`unpacked in`), wrote into another process and started',
      '(`injected into`), and executables it wrote to disk (`dropped by`), each with its address, and in',
      '`extended_metadata` its SHA-256, type (`PE`, `ELF`, `shellcode`) and size. A PE found in memory is',
      'dumped with its section table pointing where it was mapped, so it reads as a file. At most 32 dumps',
      'and 32 MiB a run. Each dump is also a child binary of the sample (`GET /v2/binaries/{binary_id}/related`):',
      "one the engine has a model for is analysed at once with the sample's scope; any other (shellcode) can",
      'be analysed by its SHA-256 with a `binary_config`.',
      '',
      '**Binlens extension:** `pid`, the process it was dumped from (or that wrote the file), and `reason`:',
      '`injected`, `executed` (unpacked and run) or `dropped`.',
      NOT_THERE,
    ].join('\n'),
  },
  getProcessDump: {
    summary: 'Get one memory dump of the dynamic execution',
    description: `${RUN}\n\nThe bytes of the dump the list names \`dump_name\`; 404 for any other name. ${NOT_THERE}`,
  },
  getProcessRegistry: {
    summary: 'Get the registry activity of the dynamic execution, by process',
    description: [
      RUN,
      '',
      'Each registry operation (`create`, `open`, `query`, `set`, `delete`) by process id, in run order, with',
      `the key, and the value's name and data where there is one. A Linux run has no registry. ${NOT_THERE}`,
    ].join('\n'),
  },
  getProcessTree: {
    summary: 'Get the process tree of the dynamic execution',
    description: [
      RUN,
      '',
      'The sample and every process it created (CreateProcess, ShellExecute, WinExec; fork, clone, execve,',
      "posix_spawn), each with what it ran (the path it exec'd, and its arguments split at spaces) and",
      '`children`. `ts_from`/`ts_to` are positions in the',
      `run's sequence of recorded events (its creation, its last event), not seconds. ${NOT_THERE}`,
    ].join('\n'),
  },
  getDynamicExecutionEvents: {
    summary: 'List the events the dynamic execution recorded (Binlens extension)',
    description: [
      RUN,
      '',
      '**Binlens extension** (the reference has no such operation): every file, process, memory, registry and',
      'network operation the run recorded, in run order (`seq`), with the process (`pid`), its `kind`',
      '(`file-write`, `process-create`, `memory-write`, `registry-set`, `dns-query`, `http-request`, …), the',
      'system call or API (`api`), the guest address of the call (`site`) and what it did (`detail`).',
      "`function_id` is the analysis's function holding the call site: null for code the static analysis has",
      'not seen (a program the sample started, a payload) and until the analysis is `Complete`.',
      '',
      '`pid` and `kind` filter; `page` (from 1) and `page_size` (1–500, 100 by default) page the result.',
      '`total` counts the events matching the filters, `kinds` the events of each kind (of the process with',
      '`pid`, whatever `kind` asks), and `recorded` all the run recorded: it keeps the first 10 000.',
      NOT_THERE,
    ].join('\n'),
  },
  getTtps: {
    summary: 'Get the behaviours (TTPs) of the dynamic execution with their ATT&CK techniques',
    description: [
      RUN,
      '',
      'Each behaviour the recorded events show (encrypting files beside a ransom note, HTTP, a payload',
      'downloaded, a shell command, account files read, …) with its MITRE ATT&CK techniques, its score',
      '(1–10) and the processes that showed it (`ppid` 0: the sample itself); `score` is their sum.',
      '',
      '**Binlens extension:** `functions`, the functions of the static analysis (id, name, address) holding',
      'the calls that showed each behaviour — empty until the analysis is Complete.',
      NOT_THERE,
    ].join('\n'),
  },
} satisfies Record<string, OperationDoc>;
