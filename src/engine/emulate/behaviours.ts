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
/** Library calls that answer who the user is, and the environment variables that say it. */
const USER_CALLS = /^(getlogin|getlogin_r|cuserid|getpwuid)$/;
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
      const notes = [...wrote.keys()].filter((w) => RANSOM_NOTE.test(w.split('/').pop()!));
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
      kind(events, 'http-request').filter((e) => e.detail.method === 'GET' && PAYLOAD.test(path(e).split('?')[0]!)),
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
          (e.kind === 'process-exec' && SYSTEM_INFO.test(command(e))) ||
          (e.kind === 'library-call' && (e.api === 'gethostname' || e.api === 'uname')),
      ),
  },
  {
    name: 'asks who the user is',
    attack: [{ id: 'T1033', name: 'System Owner/User Discovery' }],
    score: 2,
    match: (events) =>
      events.filter(
        (e) =>
          (e.kind === 'process-exec' && USER_INFO.test(command(e))) ||
          (e.kind === 'library-call' && USER_CALLS.test(e.api)) ||
          (e.kind === 'library-call' && e.api.endsWith('getenv') && USER_VARIABLES.test(String(e.detail.argument))),
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
