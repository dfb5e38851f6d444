// The contract test's requests for the Firmware operations: an image made in memory (a gzipped tar holding
// an ELF), so no tool is needed; contract.test.ts validates each response against the reference's schema.
import type { LightMyRequestResponse } from 'fastify';
import { gzipSync } from 'node:zlib';
import type { Harness } from '../helpers/harness.js';
import { tar } from '../helpers/firmware/builders.js';
import { multipartBody } from '../helpers/multipart.js';
import type { ContractCall as Call } from '../helpers/reference-contract.js';
import { elf64 } from '../helpers/samples.js';

type Check = (
  method: string,
  template: string,
  res: LightMyRequestResponse,
  status: number,
) => { data: Record<string, unknown> | null };

export async function exerciseFirmware(h: Harness, call: Call, check: Check): Promise<void> {
  const { alice, bob } = h.keys;
  const post = (parts: Parameters<typeof multipartBody>[0]) => {
    const form = multipartBody(parts);
    return h.app.inject({
      method: 'POST',
      url: '/v2/firmware',
      headers: { authorization: alice, 'content-type': form.contentType },
      payload: form.payload,
    });
  };
  const image = gzipSync(tar([{ name: 'bin/daemon', data: elf64(404) }]));
  const created = check('POST', '/v2/firmware', await post([{ name: 'file', value: image, filename: 'fw.bin' }]), 201);
  check('POST', '/v2/firmware', await post([{ name: 'password', value: 'x' }]), 422);
  const tooBig = Buffer.alloc(h.config.maxUploadBytes + 1);
  check('POST', '/v2/firmware', await post([{ name: 'file', value: tooBig, filename: 'big.bin' }]), 413);
  const task = { task_id: String(created.data!.task_id) };
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    const r = await h.request('GET', `/v2/firmware/get-binaries/${task.task_id}`, alice);
    if (r.json().data.status === 'COMPLETED') break;
    await new Promise((done) => setTimeout(done, 50));
  }
  await call(alice, 'GET', '/v2/firmware/get-binaries/{task_id}', 200, { params: task });
  await call(bob, 'GET', '/v2/firmware/get-binaries/{task_id}', 404, { params: task });
  await call(alice, 'GET', '/v2/firmware/get-binaries/{task_id}', 422, { params: { task_id: 'x'.repeat(100) } });
  const binary = { binary_id: Number(created.data!.binary_id) };
  await call(alice, 'GET', '/v2/binaries/{binary_id}/related', 200, { params: binary });
  await call(alice, 'GET', '/v2/binaries/{binary_id}/related/status', 200, { params: binary });
}
