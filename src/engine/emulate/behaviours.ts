// What a run's events amount to, as an analyst would tag it: behaviours (the TTPs view), each with its
// MITRE ATT&CK techniques, a score, and the events that show it (their processes and call sites, so each
// behaviour leads back to the functions of the static analysis). Rules read events only, never the
// sample's bytes: the same run always gives the same behaviours.
import type { EmulationEvent } from './events.js';

export interface Technique {
  id: string;
  name: string;
}

export interface Behaviour {
  name: string;
  attack: Technique[];
  /** 1 (worth a look) to 10 (harmful on its own): what the TTPs view's score sums. */
  score: number;
  /** The events that show it, in run order. */
  events: EmulationEvent[];
}

interface Rule {
  name: string;
  attack: Technique[];
  score: number;
  match(events: EmulationEvent[]): EmulationEvent[];
}

const SHELLS = /(^|\/)(sh|bash|dash|ash|zsh|ksh|busybox)$/;
/** Commands whose only purpose is to describe the system, or the user running them. */
const SYSTEM_INFO = /(^|[\s/;|&])(uname|hostname|lscpu|lsb_release|hostnamectl|systeminfo|ver)(\s|$)/;
const USER_INFO = /(^|[\s/;|&])(id|whoami|who|w|users|logname)(\s|$)/;
/** Library and API calls that answer who the user is, and the environment variables that say it. */
const USER_CALLS = /^(getlogin|getlogin_r|cuserid|getpwuid|GetUserName[AW])$/;
/** Calls that read an environment variable. */
const ENV_CALLS = /(getenv|^GetEnvironmentVariable[AW])$/;
/** Calls that describe the machine. */
const SYSTEM_CALLS = /^(gethostname|uname|GetComputerName[AW]|GetComputerNameEx[AW])$/;
/** Windows APIs that fetch a URL's content for the program: a download whatever the path. */
const URL_FETCHERS = /^(InternetOpenUrl[AW]|URLDownloadToFile[AW])$/;
/** Windows APIs that create processes or threads, or work in another process's memory. */
const NATIVE_EXECUTION = /^(CreateProcess[AW]|CreateRemoteThread|VirtualAllocEx|WriteProcessMemory)$/;
/** Windows command interpreters, by the image a process is created with. */
const WINDOWS_SHELLS = /(^|[\\/])(cmd|cmd\.exe)$/i;
const POWERSHELL = /(^|[\\/])(powershell|pwsh)(\.exe)?$/i;
/** Distinct keys polled with GetAsyncKeyState that make a keylogger's sweep rather than a hotkey check. */
const KEY_SWEEP = 10;
/** Registry keys whose values run programs at logon. */
const RUN_KEYS = /\\CurrentVersion\\(Run|RunOnce|RunServices|Policies\\Explorer\\Run)(\\|$)/i;
const USER_VARIABLES = /^(USER|USERNAME|LOGNAME)$/;
/** Names ransomware gives the note it leaves beside encrypted files. */
const RANSOM_NOTE = /(readme|read_me|decrypt|restore|recover|how[_-]?to|ransom|instructions)/i;
/** A download of something meant to run or unpack: a path ending in such an extension. */
const PAYLOAD = /\.(bin|exe|dll|elf|so|sh|ps1|bat|jar|zip|7z|gz|tar)$/i;

const path = (e: EmulationEvent) => String(e.detail.path ?? '');
const command = (e: EmulationEvent) => String(e.detail.args ?? e.detail.path ?? '');
const kind = (events: EmulationEvent[], k: EmulationEvent['kind']) => events.filter((e) => e.kind === k);

const RULES: Rule[] = [
  {
    name: 'encrypts files and leaves a ransom note',
    attack: [{ id: 'T1486', name: 'Data Encrypted for Impact' }],
    score: 10,
    // A file read, then rewritten, or written again under a longer name (q3.xlsx → q3.xlsx.enc), or as
    // many bytes elsewhere (a stream cipher's output) with the original deleted; and a note with a ransom
    // note's name. A copy alone is a backup, a note alone a README.
    match(events) {
      const read = bytesBy(kind(events, 'file-read'));
      const wrote = bytesBy(kind(events, 'file-write'));
      const deleted = new Set(kind(events, 'file-delete').map(path));
      const notes = [...wrote.keys()].filter((w) => RANSOM_NOTE.test(w.split(/[\\/]/).pop()!));
      const encrypts = (w: string, n: number) =>
        [...read].some(([r, m]) => w === r || w.startsWith(`${r}.`) || (n === m && deleted.has(r)));
      const copies = new Set([...wrote].filter(([w, n]) => !notes.includes(w) && encrypts(w, n)).map(([w]) => w));
      if (!copies.size || !notes.length) return [];
      return kind(events, 'file-write').filter((e) => copies.has(path(e)) || notes.includes(path(e)));
    },
  },
  {
    name: 'talks HTTP',
    attack: [{ id: 'T1071.001', name: 'Application Layer Protocol: Web Protocols' }],
    score: 4,
    match: (events) => kind(events, 'http-request'),
  },
  {
    name: 'downloads a payload',
    attack: [{ id: 'T1105', name: 'Ingress Tool Transfer' }],
    score: 7,
    match: (events) =>
      kind(events, 'http-request').filter(
        (e) => e.detail.method === 'GET' && (URL_FETCHERS.test(e.api) || PAYLOAD.test(path(e).split('?')[0]!)),
      ),
  },
  {
    name: 'runs a shell command',
    attack: [{ id: 'T1059.004', name: 'Command and Scripting Interpreter: Unix Shell' }],
    score: 5,
    match: (events) => kind(events, 'process-exec').filter((e) => SHELLS.test(path(e))),
  },
  {
    name: 'asks about the system',
    attack: [{ id: 'T1082', name: 'System Information Discovery' }],
    score: 2,
    match: (events) =>
      events.filter(
        (e) =>
          ((e.kind === 'process-exec' || e.kind === 'process-create') && SYSTEM_INFO.test(command(e))) ||
          (e.kind === 'library-call' && SYSTEM_CALLS.test(e.api)),
      ),
  },
  {
    name: 'asks who the user is',
    attack: [{ id: 'T1033', name: 'System Owner/User Discovery' }],
    score: 2,
    match: (events) =>
      events.filter(
        (e) =>
          ((e.kind === 'process-exec' || e.kind === 'process-create') && USER_INFO.test(command(e))) ||
          (e.kind === 'library-call' && USER_CALLS.test(e.api)) ||
          (e.kind === 'library-call' && ENV_CALLS.test(e.api) && USER_VARIABLES.test(String(e.detail.argument))),
      ),
  },
  {
    name: 'lists local accounts',
    attack: [{ id: 'T1087.001', name: 'Account Discovery: Local Account' }],
    score: 3,
    match: (events) => kind(events, 'file-read').filter((e) => path(e) === '/etc/passwd'),
  },
  {
    name: 'goes for the password hashes',
    attack: [{ id: 'T1003.008', name: 'OS Credential Dumping: /etc/passwd and /etc/shadow' }],
    score: 8,
    match: (events) =>
      events.filter(
        (e) =>
          (e.kind === 'file-open' || e.kind === 'file-access' || e.kind === 'file-read') && path(e) === '/etc/shadow',
      ),
  },
  {
    name: 'injects code into another process',
    attack: [{ id: 'T1055.002', name: 'Process Injection: Portable Executable Injection' }],
    score: 9,
    // Memory written in another process and a thread started in what was written.
    match(events) {
      const started = kind(events, 'thread-create').filter((e) => e.detail.written === 1);
      const into = new Set(started.map((e) => e.detail.pid));
      return events.filter(
        (e) =>
          (e.kind === 'memory-alloc' || e.kind === 'memory-write' || e.kind === 'thread-create') &&
          into.has(e.detail.pid),
      );
    },
  },
  {
    name: 'runs code it unpacked',
    attack: [{ id: 'T1027.002', name: 'Obfuscated Files or Information: Software Packing' }],
    score: 6,
    match: (events) => kind(events, 'memory-execute'),
  },
  {
    name: 'creates processes and threads through the Windows API',
    attack: [{ id: 'T1106', name: 'Native API' }],
    score: 3,
    match: (events) => events.filter((e) => NATIVE_EXECUTION.test(e.api) && e.kind !== 'library-call'),
  },
  {
    name: 'changes the registry',
    attack: [{ id: 'T1112', name: 'Modify Registry' }],
    score: 4,
    match: (events) =>
      events.filter((e) => e.kind === 'registry-create' || e.kind === 'registry-set' || e.kind === 'registry-delete'),
  },
  {
    name: 'starts itself at logon through a Run key',
    attack: [{ id: 'T1547.001', name: 'Boot or Logon Autostart Execution: Registry Run Keys / Startup Folder' }],
    score: 8,
    match: (events) => kind(events, 'registry-set').filter((e) => RUN_KEYS.test(path(e))),
  },
  {
    name: 'logs keystrokes',
    attack: [{ id: 'T1056.001', name: 'Input Capture: Keylogging' }],
    score: 8,
    // A keyboard hook, or the state of many keys polled one by one.
    match(events) {
      const calls = kind(events, 'library-call');
      const hooks = calls.filter((e) => /^SetWindowsHookEx[AW]$/.test(e.api) && e.detail.keyboard === 'yes');
      const polls = calls.filter((e) => e.api === 'GetAsyncKeyState');
      return [...hooks, ...(new Set(polls.map((e) => e.detail.argument)).size >= KEY_SWEEP ? polls : [])];
    },
  },
  {
    name: 'asks which window the user is in',
    attack: [{ id: 'T1010', name: 'Application Window Discovery' }],
    score: 2,
    match: (events) =>
      kind(events, 'library-call').filter((e) => e.api === 'GetForegroundWindow' || /^GetWindowText[AW]$/.test(e.api)),
  },
  {
    name: 'runs a Windows shell command',
    attack: [{ id: 'T1059.003', name: 'Command and Scripting Interpreter: Windows Command Shell' }],
    score: 5,
    match: (events) => kind(events, 'process-create').filter((e) => WINDOWS_SHELLS.test(path(e))),
  },
  {
    name: 'runs PowerShell',
    attack: [{ id: 'T1059.001', name: 'Command and Scripting Interpreter: PowerShell' }],
    score: 6,
    match: (events) => kind(events, 'process-create').filter((e) => POWERSHELL.test(path(e))),
  },
  {
    name: 'decodes data it carries',
    attack: [{ id: 'T1140', name: 'Deobfuscate/Decode Files or Information' }],
    score: 3,
    match: (events) => kind(events, 'library-call').filter((e) => /^CryptStringToBinary[AW]$/.test(e.api)),
  },
  {
    name: 'decrypts saved credentials',
    attack: [{ id: 'T1555', name: 'Credentials from Password Stores' }],
    score: 8,
    match: (events) => kind(events, 'library-call').filter((e) => e.api === 'CryptUnprotectData'),
  },
  {
    name: 'reads the registry',
    attack: [{ id: 'T1012', name: 'Query Registry' }],
    score: 1,
    match: (events) => kind(events, 'registry-query'),
  },
  {
    name: 'hammers an API (a sandbox-evasion delay)',
    attack: [{ id: 'T1497.003', name: 'Virtualization/Sandbox Evasion: Time Based Evasion' }],
    score: 3,
    match: (events) => kind(events, 'api-hammering'),
  },
];

/** Bytes moved per path. */
function bytesBy(events: EmulationEvent[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of events) out.set(path(e), (out.get(path(e)) ?? 0) + Number(e.detail.bytes ?? 0));
  return out;
}

const ordered = (events: EmulationEvent[]) => [...new Set(events)].sort((a, b) => a.seq - b.seq);

/** The behaviours a run shows, strongest first (then by name). */
export function behavioursOf(events: EmulationEvent[]): Behaviour[] {
  const found: Behaviour[] = [];
  for (const rule of RULES) {
    const shown = rule.match(events);
    if (shown.length) found.push({ name: rule.name, attack: rule.attack, score: rule.score, events: ordered(shown) });
  }
  return found.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
}
