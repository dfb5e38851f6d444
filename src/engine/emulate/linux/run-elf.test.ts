// Linux x86-64 programs emulated from their entry point — static ones built here with gcc -static, dynamic
// ones (built here, and the corpus's behaviour samples) through their own loader and this machine's C
// library as the sysroot: what they do to files and the network is recorded (and never done), with the
// executable's call site, and every bound ends a run with its reason. Skips with a message without gcc,
// ../shared or Debian's libunicorn2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { hasCommand } from '../../../../test/helpers/commands.js';
import { CORPUS } from '../../../../test/helpers/engine/disasm.js';
import { hostSysroot, sysrootFor } from '../../../jobs/sysroot.js';
import { elfLoadPlan } from '../../formats/elf/index.js';
import { emulatorAvailable } from '../unicorn.js';
import { EmulationRefused } from '../events.js';
import { runLinuxElf } from './run-elf.js';

/** `source` built by `cc` (static unless `dynamic`), or a reason it cannot be. */
function build(source: string, dynamic = false, cc = 'gcc'): Uint8Array | string {
  if (!emulatorAvailable()) return 'libunicorn2 is not installed (apt-get install libunicorn2)';
  if (!hasCommand(cc)) return `${cc} absent`;
  const dir = mkdtempSync(join(tmpdir(), 'binlens-emulate-'));
  try {
    writeFileSync(join(dir, 'p.c'), source);
    execFileSync(cc, ['-O1', ...(dynamic ? [] : ['-static']), 'p.c', '-o', 'p'], { cwd: dir, stdio: 'pipe' });
    return readFileSync(join(dir, 'p'));
  } catch (err) {
    return `gcc -static failed (libc6-dev's static C library?): ${(err as Error).message.slice(0, 200)}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const BEHAVIOUR = `#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
int main(int argc, char **argv) {
  FILE *f = fopen("/etc/passwd", "r");
  char line[256]; int n = 0;
  while (f && fgets(line, sizeof line, f)) n++;
  if (f) fclose(f);
  FILE *o = fopen("/tmp/out.txt", "w");
  fprintf(o, "lines=%d arg=%s\\n", n, argc > 1 ? argv[1] : "-");
  fclose(o);
  unlink("/home/user/notes.txt");
  int s = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {0};
  a.sin_family = AF_INET; a.sin_port = htons(8080);
  inet_pton(AF_INET, "198.51.100.7", &a.sin_addr);
  if (connect(s, (struct sockaddr *)&a, sizeof a) == 0) {
    const char *req = "GET /beacon HTTP/1.1\\r\\nHost: c2.example\\r\\n\\r\\n";
    send(s, req, strlen(req), 0);
  }
  close(s);
  printf("done %d\\n", n);
  return 3;
}
`;

for (const cc of [
  'gcc',
  'aarch64-linux-gnu-gcc',
  'i686-linux-gnu-gcc',
  'arm-linux-gnueabihf-gcc',
  'mipsel-linux-gnu-gcc',
  'mips-linux-gnu-gcc',
])
  test(`emulate: a static program built by ${cc} reads, writes, deletes and beacons — recorded with call sites, nothing done`, (t) => {
    const bytes = build(BEHAVIOUR, false, cc);
    if (typeof bytes === 'string') return t.skip(bytes);
    const run = runLinuxElf(bytes, { argv: ['p', 'hello'] });
    assert.deepEqual(run.stop, { reason: 'exit', detail: 'exit status 3' });
    assert.equal(run.output, 'done 3\n');
    const seen = run.events.map((e) => `${e.kind} ${e.detail.path ?? e.detail.address ?? ''}`);
    for (const e of [
      'file-open /etc/passwd',
      'file-read /etc/passwd',
      'file-open /tmp/out.txt',
      'file-write /tmp/out.txt',
      'file-delete /home/user/notes.txt',
      'connect 198.51.100.7',
    ])
      assert.ok(seen.includes(e), `${e} in ${seen.join('; ')}`);
    const http = run.events.find((e) => e.kind === 'http-request');
    assert.deepEqual(http?.detail, { method: 'GET', path: '/beacon', host: 'c2.example', port: 8080 });
    // The virtual file system holds what it wrote; the seeded /etc/passwd has three lines.
    assert.equal(new TextDecoder().decode(run.files.get('/tmp/out.txt')), 'lines=3 arg=hello\n');
    assert.ok(!run.files.has('/home/user/notes.txt'));
    // Each event's site is a system-call instruction of the program (syscall, svc #0, int 0x80).
    const code = elfLoadPlan(bytes).segments.filter((seg) => seg.exec);
    for (const e of run.events)
      assert.ok(
        code.some((seg) => e.site >= seg.vaddr && e.site < seg.vaddr + seg.memSize),
        `site 0x${e.site.toString(16)}`,
      );
  });

for (const [cc, arch, loader, platform] of [
  ['aarch64-linux-gnu-gcc', 'arm64', '/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1', 'aarch64'],
  ['i686-linux-gnu-gcc', 'x86', '/usr/i686-linux-gnu/lib/ld-linux.so.2', 'i686'],
  ['arm-linux-gnueabihf-gcc', 'arm', '/usr/arm-linux-gnueabihf/lib/ld-linux-armhf.so.3', 'v7l'],
  ['mipsel-linux-gnu-gcc', 'mips', '/usr/mipsel-linux-gnu/lib/ld.so.1', 'mips'],
  ['mips-linux-gnu-gcc', 'mips', '/usr/mips-linux-gnu/lib/ld.so.1', 'mips'],
] as const)
  test(`emulate: a program built by ${cc}, dynamically linked, runs through its loader from the cross libraries`, (t) => {
    const bytes = build(BEHAVIOUR, true, cc);
    if (typeof bytes === 'string') return t.skip(bytes);
    if (!existsSync(loader)) return t.skip(`${loader} absent (Debian's cross C library)`);
    assert.throws(
      () => runLinuxElf(bytes, { argv: ['p'] }),
      (e: unknown) =>
        e instanceof EmulationRefused && e.message.includes(`${basename(loader)} and a C library for ${platform}`),
    );
    const big = cc.startsWith('mips-');
    const run = runLinuxElf(bytes, { argv: ['p', 'hi'], sysroot: sysrootFor(arch, big ? 'big' : 'little')! });
    assert.deepEqual(run.stop, { reason: 'exit', detail: 'exit status 3' });
    assert.equal(run.output, 'done 3\n');
    assert.deepEqual(
      run.events.filter((e) => e.kind !== 'file-read').map((e) => `${e.kind} ${e.detail.path ?? e.detail.address}`),
      [
        'file-open /etc/passwd',
        'file-open /tmp/out.txt',
        'file-write /tmp/out.txt',
        'file-delete /home/user/notes.txt',
        'connect 198.51.100.7',
        'http-request /beacon',
      ],
    );
  });

test("emulate: AArch64 — a child created, exec'd and waited for; a wild access is a fault", (t) => {
  const spawn = build(
    '#include <unistd.h>\n#include <sys/wait.h>\nint main(void) { int st = 0; if (fork() == 0) { ' +
      'char *a[] = {"sh", "-c", "id", 0}; execve("/bin/sh", a, 0); return 1; } wait(&st); return WEXITSTATUS(st) + 5; }',
    false,
    'aarch64-linux-gnu-gcc',
  );
  if (typeof spawn === 'string') return t.skip(spawn);
  const run = runLinuxElf(spawn, { argv: ['p'] });
  assert.deepEqual(run.stop, { reason: 'exit', detail: 'exit status 5' });
  assert.deepEqual(
    run.events.map((e) => [e.pid, e.kind, e.detail.args ?? e.detail.parent]),
    [
      [1000, 'process-create', 1000],
      [1001, 'process-exec', 'sh -c id'],
    ],
  );
  const wild = build('int main(void) { return *(volatile int *)0x10; }', false, 'aarch64-linux-gnu-gcc');
  if (typeof wild === 'string') return t.skip(wild);
  const fault = runLinuxElf(wild, { argv: ['p'] });
  assert.equal(fault.stop.reason, 'fault');
  assert.match(fault.stop.detail, /invalid memory access at 0x10 by 0x4/);
});

test('emulate: each bound ends its run with its reason', (t) => {
  const spin = build('int main(void) { volatile unsigned long i = 0; for (;;) i++; }');
  if (typeof spin === 'string') return t.skip(spin);
  const loop = runLinuxElf(spin, { argv: ['p'], limits: { instructions: 2_000_000 } });
  assert.equal(loop.stop.reason, 'instructions');
  const slow = runLinuxElf(spin, { argv: ['p'], limits: { wallMs: 200 } });
  assert.equal(slow.stop.reason, 'time');

  const forks = build('#include <unistd.h>\nint main(void) { for (;;) fork(); }');
  if (typeof forks === 'string') return t.skip(forks);
  // Each child forks too, and runs to its end first: 16 processes, then every fork is refused.
  const bomb = runLinuxElf(forks, { argv: ['p'], limits: { apiCalls: 500 } });
  assert.equal(bomb.stop.reason, 'api-calls');
  const created = bomb.events.filter((e) => e.kind === 'process-create');
  assert.equal(created.filter((e) => e.detail.pid !== undefined).length, 16);
  assert.ok(created.filter((e) => e.detail.result === 'refused: process limit').length > 100);

  const huge = build(
    '#include <stdlib.h>\n#include <stdio.h>\nint main(void) { char *p = malloc(10000000000UL); printf("%d\\n", p == 0); return 0; }',
  );
  if (typeof huge === 'string') return t.skip(huge);
  const alloc = runLinuxElf(huge, { argv: ['p'] });
  assert.deepEqual(alloc.stop, { reason: 'exit', detail: 'exit status 0' });
  assert.equal(alloc.output, '1\n', 'malloc of 10 GB returns NULL');
  assert.ok(alloc.events.some((e) => e.kind === 'memory-refused'));

  // getppid forever: past the threshold the loop is one event and stops costing the system-call budget.
  const hammering = build('#include <unistd.h>\nint main(void) { for (;;) getppid(); }');
  if (typeof hammering === 'string') return t.skip(hammering);
  const idle = runLinuxElf(hammering, { argv: ['p'], limits: { apiCalls: 2000, instructions: 2_000_000 } });
  assert.equal(idle.stop.reason, 'instructions');
  const loops = idle.events.filter((e) => e.kind === 'api-hammering');
  assert.deepEqual(
    loops.map((e) => e.detail.name),
    ['getppid'],
  );
  assert.ok(Number(loops[0]!.detail.count) > 10_000, String(loops[0]!.detail.count));

  // An unpacker: code decoded into anonymous memory, made executable and called.
  const unpacker = build(`#include <sys/mman.h>
static const unsigned char packed[] = { 0xb8 ^ 0x5a, 0x2a ^ 0x5a, 0x5a, 0x5a, 0x5a, 0xc3 ^ 0x5a };
int main(void) {
  unsigned char *p = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  for (unsigned i = 0; i < sizeof packed; i++) p[i] = packed[i] ^ 0x5a;
  mprotect(p, 4096, PROT_READ | PROT_EXEC);
  return ((int (*)(void))p)();
}`);
  if (typeof unpacker === 'string') return t.skip(unpacker);
  const unpacked = runLinuxElf(unpacker, { argv: ['p'] });
  assert.deepEqual(unpacked.stop, { reason: 'exit', detail: 'exit status 42' });
  assert.deepEqual(unpacked.events.filter((e) => e.kind === 'memory-execute').length, 1);
  assert.deepEqual([...unpacked.dumps[0]!.bytes.subarray(0, 6)], [0xb8, 0x2a, 0, 0, 0, 0xc3]);

  const wild = build('int main(void) { return *(volatile int *)0x10; }');
  if (typeof wild === 'string') return t.skip(wild);
  const fault = runLinuxElf(wild, { argv: ['p'] });
  assert.equal(fault.stop.reason, 'fault');
  assert.match(fault.stop.detail, /invalid memory access at 0x10 by 0x4/);
});

test('emulate: a dynamically linked program runs through its own loader; without a sysroot it is refused', (t) => {
  const bytes = build(
    `#include <stdio.h>
#include <string.h>
#include <netdb.h>
#include <unistd.h>
#include <sys/socket.h>
int main(void) {
  struct addrinfo hints = {0}, *res = 0;
  hints.ai_family = AF_INET; hints.ai_socktype = SOCK_STREAM;
  if (getaddrinfo("c2.example.org", "80", &hints, &res) != 0) return 1;
  int s = socket(res->ai_family, res->ai_socktype, 0);
  if (connect(s, res->ai_addr, res->ai_addrlen) == 0) {
    const char *r = "GET /x HTTP/1.0\\r\\nHost: c2.example.org\\r\\n\\r\\n";
    write(s, r, strlen(r));
  }
  return 0;
}
`,
    true,
  );
  if (typeof bytes === 'string') return t.skip(bytes);
  assert.throws(
    () => runLinuxElf(bytes, { argv: ['p'] }),
    (e: unknown) => e instanceof EmulationRefused && /needs its loader \/lib64\/ld-linux-x86-64\.so\.2/.test(e.message),
  );
  const run = runLinuxElf(bytes, { argv: ['p'], sysroot: hostSysroot() });
  assert.deepEqual(run.stop, { reason: 'exit', detail: 'exit status 0' });
  const behaviour = run.events.filter((e) => !e.kind.startsWith('file-'));
  assert.deepEqual(
    behaviour.map((e) => [e.kind, e.detail.host]),
    [
      ['dns-query', 'c2.example.org'],
      ['connect', 'c2.example.org'],
      ['http-request', 'c2.example.org'],
    ],
  );
  assert.equal(behaviour[0]!.detail.answer, behaviour[1]!.detail.address, 'connects to the address DNS gave');
  assert.match(String(behaviour[0]!.detail.answer), /^192\.0\.2\.\d+$/);
  // The loader finding the C library is not the program's doing; every event is at a call in the program.
  assert.ok(!run.events.some((e) => String(e.detail.path ?? '').includes('libc')));
  for (const e of run.events) assert.ok(e.site - run.base < bytes.length, `site 0x${e.site.toString(16)}`);
});

/** The corpus's behaviour samples, with what each does by its source (../shared/corpus/src/samples). */
const SAMPLES = `${CORPUS}/bin/samples`;

test('emulate: the corpus behaviour samples do what their sources say', (t) => {
  if (!existsSync(SAMPLES)) return t.skip(`${SAMPLES} absent`);
  if (!emulatorAvailable()) return t.skip('libunicorn2 is not installed');
  const sample = (name: string) => readFileSync(`${SAMPLES}/sample-${name}_linux-x86_64_gcc12_O2_stripped`);
  const sysroot = hostSysroot();
  const kinds = (run: ReturnType<typeof runLinuxElf>) =>
    run.events.filter((e) => e.kind !== 'file-read').map((e) => `${e.kind} ${e.detail.path ?? e.detail.address ?? ''}`);

  // file_crypt IN OUT: reads IN, writes OUT (RC4 then XOR), and a ransom-style note beside it.
  const input = new TextEncoder().encode('quarterly figures\n');
  const crypt = runLinuxElf(sample('file_crypt'), {
    argv: ['file_crypt', '/home/user/report.txt', '/home/user/report.enc'],
    files: new Map([['/home/user/report.txt', input]]),
    sysroot,
  });
  assert.deepEqual(crypt.stop, { reason: 'exit', detail: 'exit status 0' });
  assert.deepEqual(kinds(crypt), [
    'file-open /home/user/report.txt',
    'file-open /home/user/report.enc',
    'file-write /home/user/report.enc',
    'file-open /home/user/report.enc.README.txt',
    'file-write /home/user/report.enc.README.txt',
  ]);
  const encrypted = crypt.files.get('/home/user/report.enc')!;
  assert.equal(encrypted.length, input.length);
  assert.notDeepEqual(encrypted, input);

  // net_beacon IP PORT: one TCP connection, an HTTP POST to the gate.
  const beacon = runLinuxElf(sample('net_beacon'), { argv: ['net_beacon', '198.51.100.23', '8443'], sysroot });
  // Its discovery first: getenv("USER") and gethostname, calls into the C library seen at its import stubs.
  assert.deepEqual(
    beacon.events.filter((e) => e.kind === 'library-call').map((e) => [e.api, e.detail.argument]),
    [
      ['getenv', 'USER'],
      ['gethostname', undefined],
    ],
  );
  assert.deepEqual(kinds(beacon).slice(2), ['connect 198.51.100.23', 'http-request /gate.php']);
  const post = beacon.events.find((e) => e.kind === 'http-request')!.detail;
  assert.deepEqual(post, { method: 'POST', path: '/gate.php', host: 'update.example.com', port: 8443 });

  // passwd_reader: reads /etc/passwd and tries /etc/shadow.
  const passwd = runLinuxElf(sample('passwd_reader'), { argv: ['passwd_reader'], sysroot });
  assert.ok(kinds(passwd).includes('file-open /etc/passwd'), kinds(passwd).join('; '));
  assert.match(passwd.output, /user +uid=1000/);

  // spawn_exec: forks a child that runs `sh -c "uname -a"` and waits for it, then popen()s `id -un`; each
  // child runs to its exec first, the parent then goes on with its pid and status.
  const spawn = runLinuxElf(sample('spawn_exec'), { argv: ['spawn_exec'], sysroot });
  assert.deepEqual(
    spawn.events.map((e) => [e.pid, e.kind, e.detail.args ?? e.detail.parent ?? e.detail.argument]),
    [
      [1000, 'process-create', 1000],
      [1001, 'process-exec', '/bin/sh -c uname -a'],
      [1000, 'library-call', 'id -un'],
      [1000, 'process-create', 1000],
      [1002, 'process-exec', 'sh -c id -un'],
    ],
  );
  assert.equal(spawn.output, 'child exit: 0\nrunning as ');
});

test('emulate: the corpus drivers of each CPU, dynamically linked, print what the x86-64 builds print', (t) => {
  if (!emulatorAvailable()) return t.skip('libunicorn2 is not installed (apt-get install libunicorn2)');
  if (!existsSync(join(CORPUS, 'bin', 'lz4'))) return t.skip(`${CORPUS} absent`);
  const builds = { x86_64: 'x86_64', aarch64: 'arm64', i386: 'x86', armhf: 'arm', mipsel: 'mips' } as const;
  const outputs = new Map<string, string[]>();
  const missing: string[] = [];
  for (const [cpu, arch] of Object.entries(builds)) {
    // sqlite computes with doubles (the x87 on i386: its precision is the process's starting state's).
    for (const name of ['lz4/lz4-1.10.0', 'sqlite/sqlite-3.50.4']) {
      let run;
      try {
        run = runLinuxElf(readFileSync(join(CORPUS, 'bin', `${name}_linux-${cpu}_gcc12_O2`)), {
          argv: ['driver'],
          sysroot: sysrootFor(arch)!,
        });
      } catch (err) {
        // The CPU's C library (Debian's libc6-*-cross) is not installed here.
        if (!(err instanceof EmulationRefused)) throw err;
        missing.push(cpu);
        break;
      }
      assert.deepEqual(run.stop, { reason: 'exit', detail: 'exit status 0' }, `${name} ${cpu}`);
      outputs.set(name, [...(outputs.get(name) ?? []), run.output]);
    }
  }
  for (const [name, seen] of outputs) assert.equal(new Set(seen).size, 1, `${name}: ${seen.join(' | ')}`);
  if ((outputs.get('lz4/lz4-1.10.0')?.length ?? 0) < 2) t.skip(`no cross C library here (${missing.join(', ')})`);
});

test('emulate: a program the sample writes and execs runs in the same process, after it', (t) => {
  // The sample copies itself (it is on the disk where /proc/self/exe says) and execs the copy as a child.
  const bytes = build(`#include <fcntl.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "child") == 0) { close(open("/tmp/child-was-here", O_CREAT | O_WRONLY, 0600)); return 7; }
  char buf[65536]; ssize_t n;
  int in = open("/home/user/sample", O_RDONLY), out = open("/tmp/stage2", O_CREAT | O_WRONLY | O_TRUNC, 0700);
  while ((n = read(in, buf, sizeof buf)) > 0) write(out, buf, n);
  close(in); close(out);
  execl("/tmp/stage2", "stage2", "child", (char *)0);
  return 1;
}`);
  if (typeof bytes === 'string') return t.skip(bytes);
  const run = runLinuxElf(bytes, { argv: ['dropper'] });
  assert.deepEqual(run.stop, { reason: 'exit', detail: 'replaced by /tmp/stage2' });
  const seen = [...new Set(run.events.map((e) => `${e.pid} ${e.kind} ${e.detail.path}`))];
  assert.deepEqual(seen, [
    '1000 file-open /home/user/sample',
    '1000 file-open /tmp/stage2',
    '1000 file-read /home/user/sample',
    '1000 file-write /tmp/stage2',
    '1000 process-exec /tmp/stage2',
    '1000 file-open /tmp/child-was-here',
  ]);
  assert.deepEqual(Buffer.from(run.files.get('/tmp/stage2')!), Buffer.from(bytes));
});
