// Every architecture and platform the engine analyses goes through the API: upload → create → Complete, with
// functions, strings, function vectors (similarity) and capabilities, on both databases. Stripped ARM (Thumb-2)
// and little-endian MIPS come from the corpus (skipped without it), big-endian MIPS is a fixture built here
// (test/fixtures/binaries/README.md), Mach-O a synthetic thin executable.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { MODEL_NAMES } from '../../src/contracts/index.js';
import { CORPUS } from '../helpers/engine/disasm.js';
import { syntheticMachO } from '../helpers/engine/macho.js';
import { backends } from '../helpers/backends.js';
import { useHarness, type Harness } from '../helpers/harness.js';
import { elfPowerPc } from '../helpers/samples.js';

interface Case {
  name: string;
  bytes: () => Buffer | null;
  model: string;
  /** A capability the sample's code is known to have, when it has one the shipped rules name. */
  capability?: string;
  /** The synthetic Mach-O's code references no string. */
  noStrings?: true;
}

const corpusFile = (path: string) => () => {
  const file = join(CORPUS, path);
  return existsSync(file) ? readFileSync(file) : null;
};

const CASES: Case[] = [
  {
    name: 'ARM (Thumb-2), stripped',
    bytes: corpusFile('bin/lz4/lz4-1.10.0_linux-armhf_gcc12_O2_stripped'),
    model: 'binnet-0.7-arm-32-linux',
  },
  {
    name: 'MIPS32 little-endian, stripped',
    bytes: corpusFile('bin/lz4/lz4-1.10.0_linux-mipsel_gcc12_O2_stripped'),
    model: 'binnet-0.7-mips-32-linux',
  },
  {
    name: 'MIPS32 big-endian, stripped',
    bytes: () => readFileSync(join('test', 'fixtures', 'binaries', 'passwd_reader_linux-mips_gcc12_O2_stripped')),
    model: 'binnet-0.7-mips-32-linux',
    capability: 'access /etc/passwd',
  },
  {
    name: 'Mach-O x86-64',
    bytes: () => Buffer.from(syntheticMachO({ bits: 64, cputype: 0x01000007 }).bytes),
    model: 'binnet-0.7-x86-64-macos',
    noStrings: true,
  },
  {
    name: 'Mach-O arm64',
    bytes: () => Buffer.from(syntheticMachO({ bits: 64, cputype: 0x0100000c }).bytes),
    model: 'binnet-0.7-arm-64-macos',
    noStrings: true,
  },
];

const get = async (h: Harness, url: string) => {
  const r = await h.request('GET', url, h.keys.alice);
  assert.equal(r.statusCode, 200, `${url}: ${r.body.slice(0, 300)}`);
  return r.json().data;
};

for (const backend of backends) {
  describe(`every architecture through the API (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);

    test('GET /v2/models lists the reference’s models and those of the other architectures', async () => {
      const { models } = await get(h(), '/v2/models');
      assert.deepEqual(models, [...MODEL_NAMES]);
      for (const c of CASES) assert.ok((models as string[]).includes(c.model), c.model);
    });

    for (const c of CASES) {
      test(`${c.name}: Complete with functions, strings, vectors and capabilities; found by its model`, async (t) => {
        const bytes = c.bytes();
        if (!bytes) return t.skip('../shared/corpus is not present');
        const id = await h().analysis(h().keys.alice, bytes, { analysis_config: { generate_capabilities: true } });
        assert.equal(await h().waitForStatus(h().keys.alice, id), 'Complete');
        const basic = await get(h(), `/v2/analyses/${id}/basic`);
        assert.equal(basic.model_name, c.model);
        const functions = (await get(h(), `/v2/analyses/${id}/functions/list?include_embeddings=true`)).functions as {
          embedding?: number[];
        }[];
        assert.ok(functions.length > 0, 'functions recovered');
        assert.ok(
          functions.every((f) => f.embedding?.length === 1024),
          'every function has its similarity vector',
        );
        const strings = await get(h(), `/v2/analyses/${id}/functions/strings`);
        if (!c.noStrings) assert.ok(strings.strings.length > 0, 'strings found');
        const caps = (await get(h(), `/v2/analyses/${id}/capabilities`)).capabilities as { capabilities: string[] }[];
        if (c.capability)
          assert.ok(
            caps.some((e) => e.capabilities.includes(c.capability!)),
            JSON.stringify(caps),
          );
        const listed = await get(h(), `/v2/analyses/list?model_name=${c.model}&limit=50`);
        assert.ok(
          listed.results.some((a: { analysis_id: number }) => a.analysis_id === id),
          'the list filters by the model',
        );
      });
    }

    test('an architecture the engine cannot decode is refused with what was detected and where to look', async () => {
      const sha = (await h().upload(h().keys.alice, elfPowerPc())).json().data.sha_256_hash as string;
      const r = await h().request('POST', '/v2/analyses', h().keys.alice, { filename: 'ppc', sha_256_hash: sha });
      assert.equal(r.statusCode, 400);
      assert.match(
        r.json().message,
        /^No appropriate model could be found for this binary: it is ELF ppc .*GET \/v2\/models/,
      );
      assert.deepEqual(r.json().errors, []);
    });
  });
}
