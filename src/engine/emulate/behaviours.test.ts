// Behaviours (ATT&CK techniques) from a run's events: each rule on events that show it and on near misses,
// then the corpus's Linux behaviour samples emulated and tagged as an analyst tags them from their sources.
// The corpus part skips with a message without ../shared or Debian's libunicorn2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { CORPUS } from '../../../test/helpers/engine/disasm.js';
import { hostSysroot } from '../../jobs/sysroot.js';
import { behavioursOf } from './behaviours.js';
import type { EmulationEvent, EventKind } from './events.js';
import { runLinuxElf } from './linux/run-elf.js';
import { emulatorAvailable } from './unicorn.js';

let seq = 0;
const event = (kind: EventKind, detail: EmulationEvent['detail'], pid = 1000): EmulationEvent => ({
  seq: seq++,
  pid,
  kind,
  api: 'test',
  site: 0x401000 + seq,
  detail,
});
const ids = (events: EmulationEvent[]) => behavioursOf(events).flatMap((b) => b.attack.map((a) => a.id));

test('behaviours: encrypting files needs the encrypted copy and a ransom note', () => {
  const read = event('file-read', { path: '/home/u/a.doc', bytes: 40 });
  const copy = event('file-write', { path: '/home/u/a.doc.locked', bytes: 40 });
  const sameSize = event('file-write', { path: '/home/u/b.bin', bytes: 40 });
  const note = event('file-write', { path: '/home/u/HOW_TO_DECRYPT.txt', bytes: 300 });
  const log = event('file-write', { path: '/tmp/log.txt', bytes: 12 });
  const removed = event('file-delete', { path: '/home/u/a.doc' });
  assert.deepEqual(ids([read, copy, note]), ['T1486']);
  assert.deepEqual(ids([read, sameSize, removed, note]), ['T1486']);
  // As many bytes elsewhere with the original kept is an installer copying files beside its README.
  assert.deepEqual(ids([read, sameSize, note]), []);
  const [encrypts] = behavioursOf([read, copy, log, note]);
  assert.deepEqual(
    encrypts!.events.map((e) => e.detail.path),
    ['/home/u/a.doc.locked', '/home/u/HOW_TO_DECRYPT.txt'],
  );
  // A copy without a note (a backup), or a note without anything encrypted, is not ransomware.
  assert.deepEqual(ids([read, copy, log]), []);
  assert.deepEqual(ids([read, log, note]), []);
});

test('behaviours: network, commands and account files', () => {
  const post = event('http-request', { method: 'POST', path: '/gate.php', host: 'c2.example', port: 80 });
  const payload = event('http-request', { method: 'GET', path: '/files/stage2.bin?x=1', host: 'c2.example', port: 80 });
  assert.deepEqual(ids([post]), ['T1071.001']);
  assert.deepEqual(ids([post, payload]).sort(), ['T1071.001', 'T1105']);

  const shell = event('process-exec', { path: '/bin/sh', args: 'sh -c uname -a' });
  const id = event('process-exec', { path: '/bin/sh', args: '/bin/sh -c id -un' });
  const ls = event('process-exec', { path: '/bin/ls', args: 'ls -l /tmp' });
  assert.deepEqual(ids([shell]).sort(), ['T1059.004', 'T1082']);
  assert.deepEqual(ids([id]).sort(), ['T1033', 'T1059.004']);
  assert.deepEqual(ids([ls]), []);

  const call = (name: string, argument?: string) =>
    event('library-call', argument === undefined ? { name } : { name, argument });
  const named = (e: EmulationEvent) => ({ ...e, api: String(e.detail.name) });
  assert.deepEqual(ids([named(call('gethostname'))]), ['T1082']);
  assert.deepEqual(ids([named(call('getenv', 'USER'))]), ['T1033']);
  assert.deepEqual(ids([named(call('getlogin'))]), ['T1033']);
  assert.deepEqual(ids([named(call('getenv', 'HOME')), named(call('getenv', 'PATH'))]), []);

  const passwd = event('file-read', { path: '/etc/passwd', bytes: 900 });
  const shadow = event('file-access', { path: '/etc/shadow', result: 'exists' });
  const group = event('file-read', { path: '/etc/group', bytes: 400 });
  assert.deepEqual(ids([passwd, shadow]), ['T1003.008', 'T1087.001']);
  assert.deepEqual(ids([group]), []);
  // Strongest first: each behaviour keeps the events that show it, with their processes and call sites.
  const all = behavioursOf([passwd, shell, shadow]);
  assert.deepEqual(
    all.map((b) => [b.name, b.score, b.events.map((e) => e.seq)]),
    [
      ['goes for the password hashes', 8, [shadow.seq]],
      ['runs a shell command', 5, [shell.seq]],
      ['lists local accounts', 3, [passwd.seq]],
      ['asks about the system', 2, [shell.seq]],
    ],
  );
});

const SAMPLES = `${CORPUS}/bin/samples`;

test('behaviours: the corpus behaviour samples, emulated, show what their sources do', (t) => {
  if (!existsSync(SAMPLES)) return t.skip(`${SAMPLES} absent`);
  if (!emulatorAvailable()) return t.skip('libunicorn2 is not installed');
  const sysroot = hostSysroot();
  const run = (name: string, argv: string[], files = new Map<string, Uint8Array>()) =>
    ids(
      runLinuxElf(readFileSync(`${SAMPLES}/sample-${name}_linux-x86_64_gcc12_O2_stripped`), { argv, files, sysroot })
        .events,
    ).sort();
  const document = new Map([['/home/user/Documents/q3.xlsx', new TextEncoder().encode('quarterly figures\n')]]);
  assert.deepEqual(
    run('file_crypt', ['file_crypt', '/home/user/Documents/q3.xlsx', '/home/user/Documents/q3.xlsx.enc'], document),
    ['T1486'],
  );
  assert.deepEqual(run('passwd_reader', ['passwd_reader']), ['T1003.008', 'T1087.001']);
  assert.deepEqual(run('spawn_exec', ['spawn_exec']), ['T1033', 'T1059.004', 'T1082']);
  // Its host and user discovery are library calls (gethostname, getenv("USER")), seen at its import stubs.
  assert.deepEqual(run('net_beacon', ['net_beacon', '198.51.100.23', '8080']), ['T1033', 'T1071.001', 'T1082']);
});
