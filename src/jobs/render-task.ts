// Worker-thread entry: assembly text of a function's blocks, from the stored sample. Runs inside piscina,
// so parsing and disassembly never hold up the API's event loop.
import { readFile } from 'node:fs/promises';
import type { BlockTextRequest } from '../contracts/index.js';
import { renderBlocks } from '../engine/index.js';

export default async function renderFile(req: BlockTextRequest): Promise<string[][]> {
  const bytes = await readFile(req.path);
  return renderBlocks(bytes, {
    options: { binaryConfig: req.binaryConfig, symbols: req.symbols },
    thumb: req.thumb,
    blocks: req.blocks,
    names: req.names,
  });
}
