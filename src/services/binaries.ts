import type { Static } from '@sinclair/typebox';
import type { BlobStore } from '../blobs/index.js';
import {
  readResultDocument,
  type BinaryDetailsResponse,
  type BinaryIdentity,
  type FileDescriber,
} from '../contracts/index.js';
import { errors } from '../shared/errors.js';
import type { Store } from '../store/index.js';
import { canView, type Caller } from './access.js';
import { sampleIdentity } from './samples.js';

/** Header class in the words of `readelf`/`rabin2 -I`: ELF64, PE32+, MACH064 … */
function headerClass(id: BinaryIdentity): string {
  switch (id.format) {
    case 'elf':
      return id.bits === 64 ? 'ELF64' : 'ELF32';
    case 'pe':
      return id.bits === 64 ? 'PE32+' : 'PE32';
    case 'macho':
      return id.bits === 64 ? 'MACH064' : 'MACH0';
    default:
      return 'RAW';
  }
}

const MACHINES: Record<string, string> = {
  x86: 'Intel 80386',
  x86_64: 'AMD x86-64 architecture',
  arm: 'ARM',
  arm64: 'ARM aarch64',
  mips: 'MIPS R3000',
};

const TYPES: Record<string, string> = {
  executable: 'EXEC (Executable file)',
  shared_library: 'DYN (Shared object file)',
  relocatable: 'REL (Relocatable file)',
  core: 'CORE (Core file)',
  dll: 'DLL (Dynamic Link Library)',
  driver: 'DRIVER (Kernel driver)',
  bundle: 'BUNDLE (Mach-O bundle)',
};

/** What is known of an uploaded binary (by its binary id): format facts, digests, first sighting. */
export class BinariesService {
  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly describe: FileDescriber,
  ) {}

  private async visibleBinary(caller: Caller, binaryId: number) {
    const a = await this.store.analyses.byBinaryId(binaryId);
    if (!a || !canView(caller, a)) throw errors.resourceNotFound();
    const sample = await this.store.samples.get(a.sha256);
    if (!sample) throw errors.resourceNotFound();
    return { a, sample };
  }

  async details(caller: Caller, binaryId: number): Promise<Static<typeof BinaryDetailsResponse>> {
    const { a, sample } = await this.visibleBinary(caller, binaryId);
    const result = readResultDocument(await this.store.events.result(a.id));
    // Before its analysis finishes, a worker digests the stored file so the answer is complete anyway.
    const facts = result ?? (await this.unanalysed(a.sha256));
    const id = facts.identity;
    const { hashes } = facts;
    return {
      arch: id.architecture,
      bits: id.bits ?? 0,
      crc32: hashes.crc32,
      Class: headerClass(id),
      entropy: facts.entropy,
      file_size: sample.size,
      language: result?.language ?? 'unknown',
      md5: hashes.md5,
      machine: MACHINES[id.architecture] ?? id.architecture,
      os: id.platform,
      sha1: hashes.sha1,
      sha256: a.sha256,
      ssdeep: hashes.ssdeep,
      static: !id.dynamic,
      stripped: result?.stripped ?? false,
      sub_sys: id.subsystem ?? id.platform,
      tlsh: hashes.tlsh,
      type: TYPES[id.binaryType] ?? id.binaryType,
      debug: id.debug,
      first_seen: new Date(sample.created_at).toISOString(),
    };
  }

  private async unanalysed(sha256: string) {
    const identity = await sampleIdentity(this.store, sha256);
    if (!identity || !(await this.blobs.has(sha256))) throw errors.resourceNotFound();
    return { identity, ...(await this.describe(await this.blobs.localPath(sha256))) };
  }

  /**
   * Threat-intelligence lookups (VirusTotal, MalwareBazaar): Binlens makes no outside calls, so both are
   * empty; the timestamps say when this service first saw the file.
   */
  async externals(caller: Caller, binaryId: number) {
    const { a, sample } = await this.visibleBinary(caller, binaryId);
    const seen = new Date(sample.created_at).toISOString();
    return { sha_256_hash: a.sha256, vt: {}, vt_last_updated: seen, mb: {}, mb_last_updated: seen };
  }
}
