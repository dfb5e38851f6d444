import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CORPUS } from '../../../test/helpers/engine/disasm.js';
import { parseBinary } from '../formats/parse.js';
import { extractStrings } from '../strings/index.js';
import { cvss3BaseScore, severityOf } from './cvss.js';
import { cycloneDx } from './cyclonedx.js';
import { identifyLibraries, type LibraryComponent } from './identify-libraries.js';
import { affects, matchVulnerabilities, OsvError, parseOsvRecord, type OsvRecord } from './osv.js';
import { compareVersions } from './version-compare.js';

const order: [string, string, number][] = [
  ['1.2.13', '1.2.13', 0],
  ['1.2.9', '1.2.13', -1],
  ['1.10.0', '1.9.4', 1],
  ['1.1.1', '1.1.1w', -1],
  ['1.1.1v', '1.1.1w', -1],
  ['3.0.0-rc1', '3.0.0', -1],
  ['3.0', '3.0.1', -1],
  ['v2.5.0', '2.5.0', 0],
  ['1.0.8+build7', '1.0.8', 0],
];
for (const [a, b, sign] of order) {
  test(`sbom: version ${a} ${sign < 0 ? '<' : sign > 0 ? '>' : '='} ${b}`, () => {
    assert.equal(Math.sign(compareVersions(a, b)), sign);
    assert.equal(Math.sign(compareVersions(b, a)), -sign || 0);
  });
}

const vectors: [string, number | null][] = [
  ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 9.8],
  ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H', 10.0],
  ['CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H', 7.8],
  ['CVSS:3.0/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N', 5.9],
  ['CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N', 6.1],
  ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N', 0],
  ['CVSS:3.1/AV:N/AC:L', null],
  ['CVSS:2.0/AV:N/AC:L/Au:N/C:P/I:P/A:P', null],
];
for (const [vector, score] of vectors) {
  test(`sbom: CVSS base score of ${vector} is ${score}`, () => {
    assert.equal(cvss3BaseScore(vector)?.score ?? null, score);
  });
}

test('sbom: severity bands', () => {
  assert.deepEqual([9.8, 7.0, 6.9, 4.0, 3.9, null].map(severityOf), [
    'CRITICAL',
    'HIGH',
    'MEDIUM',
    'MEDIUM',
    'LOW',
    'UNKNOWN',
  ]);
});

const at = (values: string[]) => values.map((value, i) => ({ value, vaddr: 0x1000 + i * 16 }));

test('sbom: libraries by version banner, by evidence near a bare version, and by needed library', () => {
  const found = identifyLibraries(
    at([
      ' deflate 1.2.13 Copyright 1995-2022 Jean-loup Gailly and Mark Adler ',
      'ERROR_headerVersion_wrong',
      '1.10.0',
      'BusyBox v1.35.0 (Debian 1:1.35.0-4)',
    ]),
    ['libssl.so.3', 'libc.so.6'],
  );
  const brief = found.map((c) => `${c.name} ${c.version ?? '-'} ${c.linkage}`);
  assert.deepEqual(brief, ['openssl - dynamic', 'zlib 1.2.13 static', 'lz4 1.10.0 static', 'busybox 1.35.0 static']);
  const zlib = found.find((c) => c.name === 'zlib')!;
  assert.equal(zlib.purl, 'pkg:generic/zlib@1.2.13');
  assert.equal(zlib.cpe, 'cpe:2.3:a:zlib:zlib:1.2.13:*:*:*:*:*:*:*');
});

test('sbom: a bare version string far from the evidence is not taken', () => {
  const strings = [
    { value: 'ERROR_headerVersion_wrong', vaddr: 0x1000 },
    { value: '1.10.0', vaddr: 0x1000 + 1024 * 1024 },
  ];
  assert.deepEqual(
    identifyLibraries(strings, []).map((c) => c.version),
    [null],
  );
});

const zlibRecord: OsvRecord = {
  id: 'TEST-ZLIB-1',
  aliases: ['CVE-2022-37434'],
  summary: 'heap overflow in inflateGetHeader',
  severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }],
  affected: [
    {
      package: { name: 'zlib', ecosystem: 'Generic' },
      ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.2.13' }] }],
    },
  ],
};

test('sbom: OSV ranges (introduced/fixed/last_affected), explicit versions, withdrawn records', () => {
  const c = (version: string | null) => ({ name: 'zlib', version });
  assert.equal(affects(zlibRecord, c('1.2.12')), true);
  assert.equal(affects(zlibRecord, c('1.2.13')), false);
  assert.equal(affects(zlibRecord, c(null)), false);
  assert.equal(affects(zlibRecord, { name: 'lz4', version: '1.2.12' }), false);
  const last = {
    ...zlibRecord,
    affected: [
      {
        package: { purl: 'pkg:generic/zlib' },
        ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '1.2.0' }, { last_affected: '1.3' }] }],
      },
    ],
  };
  assert.equal(affects(last, c('1.3')), true);
  assert.equal(affects(last, c('1.3.1')), false);
  assert.equal(affects(last, c('1.1.4')), false);
  const listed = { ...zlibRecord, affected: [{ package: { name: 'zlib' }, versions: ['1.2.11'] }] };
  assert.equal(affects(listed, c('1.2.11')), true);
  assert.equal(affects({ ...zlibRecord, withdrawn: '2024-01-01T00:00:00Z' }, c('1.2.12')), false);
});

test('sbom: matched vulnerabilities carry CVE, CVSS, score and severity', () => {
  const lib: LibraryComponent = identifyLibraries(at([' inflate 1.2.12 Copyright 1995-2022 Mark Adler ']), [])[0]!;
  const [v] = matchVulnerabilities([zlibRecord], [lib]);
  assert.deepEqual(v, {
    vendor: 'zlib',
    product: 'zlib',
    version: '1.2.12',
    cve_number: 'CVE-2022-37434',
    severity: 'CRITICAL',
    source: 'OSV TEST-ZLIB-1',
    cvss_version: '3.1',
    cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    remarks: 'heap overflow in inflateGetHeader',
    score: 9.8,
    is_unknown: false,
  });
});

test('sbom: malformed OSV records are refused with the reason', () => {
  assert.throws(() => parseOsvRecord({}), OsvError);
  assert.throws(() => parseOsvRecord({ id: 'X', affected: 'zlib' }), /affected/);
  assert.throws(() => parseOsvRecord({ id: 'X', affected: [{ ranges: [{ events: [] }] }] }), /range/);
  assert.throws(() => parseOsvRecord({ id: 'X', aliases: [1] }), /aliases/);
  assert.equal(parseOsvRecord(zlibRecord).id, 'TEST-ZLIB-1');
});

test('sbom: CycloneDX 1.5 document with the binary as metadata component and deterministic serial', () => {
  const libs = identifyLibraries(at(['LMDB 0.9.29: (March 16, 2021)']), ['libz.so.1']);
  const subject = {
    name: 'a.out',
    sha256: 'ab'.repeat(32),
    analysisId: 7,
    timestamp: '2026-01-01T00:00:00Z',
    toolVersion: '0.1.0',
  };
  const doc = cycloneDx(subject, libs);
  assert.equal(doc.specVersion, '1.5');
  assert.match(doc.serialNumber, /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(cycloneDx(subject, libs).serialNumber, doc.serialNumber);
  assert.deepEqual(
    doc.components.map((c) => [c.name, c.version, c.purl]),
    [
      ['zlib', undefined, 'pkg:generic/zlib'],
      ['lmdb', '0.9.29', 'pkg:generic/lmdb@0.9.29'],
    ],
  );
  assert.equal(doc.dependencies[0]!.dependsOn.length, 2);
});

const corpusCases: [string, string[]][] = [
  ['debian/debian-zlib-bzip2-zstd_linux-x86_64_gcc12_O2_stripped', ['zlib 1.2.13', 'bzip2 1.0.8', 'zstd -']],
  ['busybox/busybox-static_1_1.35.0-4+deb12u1+b1_arm64', ['busybox 1.35.0', 'glibc -']],
  ['sqlite/sqlite-3.34.0_linux-x86_64_gcc12_O2_stripped', ['sqlite 3.34.0']],
  ['lmdb/lmdb-0.9.29_linux-x86_64_gcc12_O2_stripped', ['lmdb 0.9.29']],
  ['lz4/lz4-1.10.0_linux-x86_64_clang14_O2_stripped', ['lz4 1.10.0']],
];
for (const [file, expected] of corpusCases) {
  test(`sbom: statically linked libraries of corpus ${path.basename(file)}`, (t) => {
    const p = path.join(CORPUS, 'bin', file);
    if (!existsSync(p)) return t.skip('../shared/corpus is not present');
    const image = parseBinary(readFileSync(p));
    const found = identifyLibraries(extractStrings(image), image.libraries)
      .filter((c) => c.linkage === 'static')
      .map((c) => `${c.name} ${c.version ?? '-'}`);
    assert.deepEqual(found.sort(), [...expected].sort());
  });
}
