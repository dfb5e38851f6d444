import type { Static } from '@sinclair/typebox';
import type { BlobStore } from '../blobs/index.js';
import type { BlockTextRenderer, FunctionBlocksResponse } from '../contracts/index.js';
import type { BlockRecord } from '../shared/analysis-records.js';
import { decodeAnalysisConfig } from '../contracts/index.js';
import { errors } from '../shared/errors.js';
import type { Store } from '../store/index.js';
import { visibleFunction, type Caller } from './access.js';

/** Wire names of the engine's edge kinds (the reference leaves `flowtype` a free string). */
const FLOW_TYPES: Record<BlockRecord['edges'][number]['kind'], string> = {
  fallthrough: 'fallthrough',
  jump: 'unconditional',
  branch_taken: 'true',
  branch_not_taken: 'false',
  switch: 'switch',
};

/** A function's basic blocks with their assembly text, rendered from the sample by a worker thread. */
export class FunctionBlocksService {
  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly render: BlockTextRenderer,
  ) {}

  async blocks(caller: Caller, id: number): Promise<Static<typeof FunctionBlocksResponse>> {
    const { f, analysis } = await visibleFunction(this.store, caller, id);
    if (!(await this.blobs.has(analysis.sha256))) throw errors.resourceNotFound();
    const blocks = JSON.parse(f.blocks) as BlockRecord[];
    const cfg = decodeAnalysisConfig(analysis.config);
    const names: Record<number, string> = {};
    for (const c of await this.store.functions.callees(f.id))
      if (c.callee_vaddr >= 0) names[c.callee_vaddr] = c.callee_name;
    const asm = await this.render({
      path: await this.blobs.localPath(analysis.sha256),
      binaryConfig: cfg.binary_config,
      // Only the base address matters for re-reading a raw blob; boundaries are already in `blocks`.
      symbols: cfg.symbols ? { baseAddress: cfg.symbols.base_address, functions: [] } : null,
      thumb: f.thumb === 1,
      blocks,
      names,
    });
    const index = new Map(blocks.map((b, i) => [b.start, i]));
    return {
      blocks: blocks.map((b, i) => ({
        asm: asm[i] ?? [],
        id: i,
        min_addr: b.start,
        // Inclusive, as a block's last address (Ghidra's getMaxAddress), not one past it.
        max_addr: Math.max(b.start, b.end - 1),
        destinations: b.edges.map((e) => ({
          destination_block_id: index.get(e.to) ?? null,
          flowtype: FLOW_TYPES[e.kind],
          vaddr: `0x${e.to.toString(16)}`,
        })),
        comment: null,
      })),
      local_variables: [],
      params: [],
      overview_comment: null,
    };
  }
}
