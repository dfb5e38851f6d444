import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recoverFixture, starts, words } from '../../../test/helpers/engine/cfg.js';

const GP = 0x27ff0; // _gp: .got (0x20000) + 0x7ff0

test('recover (MIPS): a switch table spilled to the stack and reloaded far from its jr is resolved', async () => {
  // sqlite's VDBE loop forms its table 16 instructions before the jr and reloads it from the stack.
  const nops = new Array<number>(8).fill(0);
  const code = words(
    0x8f828010, // 0x1000: lw v0, -32752(gp)   GOT page of the table (0x30000)
    0x24420010, //         addiu v0, v0, 0x10  the table, 0x30010
    0xafa20010, //         sw v0, 16(sp)
    ...nops,
    0x2c810002, //         sltiu at, a0, 2     two cases
    0x8fa30010, //         lw v1, 16(sp)
    0x00041080, //         sll v0, a0, 2
    0x00621021, //         addu v0, v1, v0
    0x8c420000, //         lw v0, 0(v0)
    0x005c1021, //         addu v0, v0, gp
    0x00400008, // 0x1044: jr v0
    0, //                  nop (delay slot)
    0x03e00008, // 0x104c: case 0: jr ra
    0,
    0x03e00008, // 0x1054: case 1: jr ra
    0,
  );
  const g = await recoverFixture({
    arch: 'mips',
    sections: [
      { name: '.text', vaddr: 0x1000, bytes: code, exec: true },
      { name: '.got', vaddr: 0x20000, bytes: words(0x30000) },
      {
        name: '.rodata',
        vaddr: 0x30000,
        bytes: [...new Array<number>(16).fill(0), ...words(0x104c - GP, 0x1054 - GP)],
      },
    ],
    symbols: [{ name: '_gp', vaddr: GP, size: 0, kind: 'object', binding: 'local', source: 'symtab' }],
    entryPoints: [{ vaddr: 0x1000, kind: 'entry' }],
  });
  assert.deepEqual(starts(g), [0x1000], 'both cases belong to the switch');
});

test("recover (MIPS): the switch guard in a branch's delay slot gives the case count", async () => {
  // `sltiu at, a0, 65; beqz at, def; sltiu at, a0, 2`: the table has 2 entries, not 65; the third word
  // after it (C's address) is not a case, and C is a function of its own.
  const code = words(
    0x8f828010, // 0x1000: lw v0, -32752(gp)
    0x24420010, //         addiu v0, v0, 0x10
    0xafa20010, //         sw v0, 16(sp)
    0x2c810041, //         sltiu at, a0, 65
    0x10200009, // 0x1010: beqz at, 0x1038
    0x2c810002, //         sltiu at, a0, 2 (delay slot)
    0x10200007, // 0x1018: beqz at, 0x1038
    0x8fa30010, //         lw v1, 16(sp) (delay slot)
    0x00041080, //         sll v0, a0, 2
    0x00621021, //         addu v0, v1, v0
    0x8c420000, //         lw v0, 0(v0)
    0x005c1021, //         addu v0, v0, gp
    0x00400008, // 0x1030: jr v0
    0,
    0x03e00008, // 0x1038: case 0 (and default): jr ra
    0,
    0x03e00008, // 0x1040: case 1: jr ra
    0,
    0x24020001, // 0x1048: C: li v0, 1
    0x03e00008, //         jr ra
    0,
  );
  const g = await recoverFixture({
    arch: 'mips',
    sections: [
      { name: '.text', vaddr: 0x1000, bytes: code, exec: true },
      { name: '.got', vaddr: 0x20000, bytes: words(0x30000) },
      {
        name: '.rodata',
        vaddr: 0x30000,
        bytes: [...new Array<number>(16).fill(0), ...words(0x1038 - GP, 0x1040 - GP, 0x1048 - GP)],
      },
    ],
    symbols: [{ name: '_gp', vaddr: GP, size: 0, kind: 'object', binding: 'local', source: 'symtab' }],
    entryPoints: [{ vaddr: 0x1000, kind: 'entry' }],
  });
  assert.deepEqual(starts(g), [0x1000, 0x1048]);
});
