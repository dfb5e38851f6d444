// npm run bench:upload — a 1 GiB upload (BENCH_UPLOAD_MIB, default 1024) through POST /v2/upload (curl
// streams it from disk): throughput and the server's peak RSS. Reference in the same run: `cat | tee |
// sha256sum` on the same file, the disk-and-hash work the server must do at the least.
import { execFileSync, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { fmt, peakRssBytes, startServer } from './lib.js';

const SIZE = Number(process.env.BENCH_UPLOAD_MIB ?? 1024) * 2 ** 20;
const KEY = 'bench-admin-key';
const dir = mkdtempSync(join(tmpdir(), 'binlens-bench-upload-'));
const file = join(dir, 'big.bin');

async function makeFile() {
  const out = createWriteStream(file);
  const chunk = Buffer.alloc(2 ** 20);
  for (let i = 0; i < SIZE / chunk.length; i++) {
    chunk.writeUInt32LE(i, 0);
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

try {
  await makeFile();
  const t0 = performance.now();
  execFileSync('sh', ['-c', `cat "${file}" | tee "${file}.copy" | sha256sum > /dev/null`]);
  const refSeconds = (performance.now() - t0) / 1000;
  rmSync(`${file}.copy`);

  const server = await startServer({ BINLENS_DATA_DIR: join(dir, 'data'), BINLENS_ADMIN_API_KEY: KEY });
  try {
    const rssBefore = peakRssBytes(server.child.pid);
    const t1 = performance.now();
    const r = spawnSync(
      'curl',
      [
        '-sS',
        '-H',
        `Authorization: ${KEY}`,
        '-F',
        'upload_file_type=BINARY',
        '-F',
        `file=@${file}`,
        `${server.baseUrl}/v2/upload`,
      ],
      { encoding: 'utf8' },
    );
    const seconds = (performance.now() - t1) / 1000;
    if (r.status !== 0 || !r.stdout.includes('"status":true')) throw new Error(`upload failed: ${r.stderr}${r.stdout}`);
    const rssAfter = peakRssBytes(server.child.pid);
    const mb = SIZE / 1e6;
    console.log(`\nupload of ${SIZE / 2 ** 20} MiB through POST /v2/upload (curl -F, loopback)`);
    console.log(
      `binlens:   ${fmt(seconds, 2)} s  ${fmt(mb / seconds, 0)} MB/s  peak RSS ${fmt(rssAfter / 2 ** 20)} MiB (${fmt(rssBefore / 2 ** 20)} MiB before the upload)`,
    );
    console.log(`reference: ${fmt(refSeconds, 2)} s  ${fmt(mb / refSeconds, 0)} MB/s  (cat | tee copy | sha256sum)`);
    console.log(`ratio:     ${fmt(refSeconds / seconds, 2)}x of the reference's throughput`);
  } finally {
    await server.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
