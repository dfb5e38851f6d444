// The 7z methods this reader decodes, keyed by method id: each turns its input streams into exactly the
// output size the folder declares (the folder decoder has checked that size against the budget).
import { decodeBzip2 } from '../../compression/bzip2.js';
import { inflateRaw } from '../../compression/deflate.js';
import { DecodeError } from '../../compression/errors.js';
import { decodeLzmaRaw, lzmaPropsFromByte } from '../../compression/lzma.js';
import { decodeLzma2 } from '../../compression/lzma2.js';
import { blockFilter } from '../../compression/xz-filters.js';
import { aesDecrypt, aesKey, aesParams, PasswordNeeded } from './aes.js';
import { decodeBcj2 } from './bcj2.js';
import { decodePpmd } from './ppmd.js';
import { riscvDecode } from './riscv.js';

export const AES_METHOD = '06f10701';

/** What a coder needs beyond its streams: the password, and keys already derived from it. */
export interface CoderContext {
  password: string | null;
  /** Derived AES keys by power and salt: deriving one costs 2^19 SHA-256 rounds, every folder shares it. */
  keys: Map<string, Uint8Array>;
}

interface Method {
  name: string;
  inputs: number;
  decode(inputs: Uint8Array[], props: Uint8Array, size: number, ctx: CoderContext): Uint8Array;
}

/** An output of the declared size, or DecodeError. */
function exact(name: string, data: Uint8Array, size: number): Uint8Array {
  if (data.length !== size) throw new DecodeError(`7z ${name} data decodes to ${data.length} bytes, not ${size}`);
  return data;
}

const single = (name: string, decode: (input: Uint8Array, props: Uint8Array, size: number) => Uint8Array) => ({
  name,
  inputs: 1,
  decode: (inputs: Uint8Array[], props: Uint8Array, size: number) => exact(name, decode(inputs[0]!, props, size), size),
});

/** A branch converter or Delta, as xz-filters.ts has them under their xz filter ids; undone on a copy. */
const filter = (name: string, xzId: number) =>
  single(name, (input, props, size) => {
    if (input.length < size) throw new DecodeError(`7z ${name} input shorter than its output`);
    const data = input.slice(0, size);
    blockFilter(xzId, props)(data);
    return data;
  });

/** Swap2 and Swap4 reverse the bytes of each 2- or 4-byte group (a trailing partial group stays). */
const swap = (width: number) =>
  single(`Swap${width}`, (input, _props, size) => {
    const data = input.slice(0, size);
    for (let i = 0; i + width <= data.length; i += width)
      for (let a = i, b = i + width - 1; a < b; a++, b--) {
        const t = data[a]!;
        data[a] = data[b]!;
        data[b] = t;
      }
    return data;
  });

/** LZMA2's one property byte: dictionary 2^(n/2 + 12) or 3 · 2^(n/2 + 11), 40 meaning 4 GiB − 1. */
function lzma2Dict(props: Uint8Array): number {
  const b = props[0];
  if (props.length !== 1 || b === undefined || b > 40) throw new DecodeError('7z LZMA2 properties invalid');
  return b === 40 ? 0xffffffff : (2 | (b & 1)) * 2 ** (Math.floor(b / 2) + 11);
}

const METHODS = new Map<string, Method>([
  [
    '00',
    single('Copy', (input, _props, size) => {
      if (input.length < size) throw new DecodeError('7z stored data shorter than its size');
      return input.subarray(0, size);
    }),
  ],
  [
    '030101',
    single('LZMA', (input, props, size) => {
      const packed = props.length === 5 ? lzmaPropsFromByte(props[0]!) : null;
      if (!packed) throw new DecodeError('7z LZMA properties invalid');
      const dictSize = (props[1]! | (props[2]! << 8) | (props[3]! << 16) | (props[4]! << 24)) >>> 0;
      return decodeLzmaRaw(input, { ...packed, dictSize }, size, size).data;
    }),
  ],
  ['21', single('LZMA2', (input, props, size) => decodeLzma2(input, lzma2Dict(props), size).data)],
  ['030401', single('PPMd', (input, props, size) => decodePpmd(input, props, size))],
  ['040108', single('Deflate', (input, _props, size) => inflateRaw(input, size).data)],
  ['040202', single('BZip2', (input, _props, size) => decodeBzip2(input, size).data)],
  ['03030103', filter('BCJ', 0x04)],
  ['03030205', filter('PPC', 0x05)],
  ['03030401', filter('IA64', 0x06)],
  ['03030501', filter('ARM', 0x07)],
  ['03030701', filter('ARMT', 0x08)],
  ['03030805', filter('SPARC', 0x09)],
  ['0a', filter('ARM64', 0x0a)],
  ['03', filter('Delta', 0x03)],
  [
    '0b',
    single('RISCV', (input, props, size) => {
      if (input.length < size || (props.length !== 0 && props.length !== 4))
        throw new DecodeError('7z RISCV input or properties invalid');
      const data = input.slice(0, size);
      riscvDecode(data, props.length === 4 ? new DataView(props.buffer, props.byteOffset).getUint32(0, true) : 0);
      return data;
    }),
  ],
  ['020302', swap(2)],
  ['020304', swap(4)],
  [
    '0303011b',
    {
      name: 'BCJ2',
      inputs: 4,
      decode: ([main, call, jump, rc], _props, size) => decodeBcj2(main!, call!, jump!, rc!, size),
    },
  ],
  [
    AES_METHOD,
    {
      name: '7zAES',
      inputs: 1,
      decode([input], props, size, ctx) {
        if (ctx.password === null) throw new PasswordNeeded('7z data is encrypted');
        const params = aesParams(props);
        const id = `${params.cyclesPower}:${Buffer.from(params.salt).toString('hex')}`;
        let key = ctx.keys.get(id);
        if (!key) ctx.keys.set(id, (key = aesKey(params, ctx.password)));
        return aesDecrypt(input!, params, key, size);
      },
    },
  ],
]);

/** Methods 7-Zip or its forks write that this reader does not decode, named for the report. */
const NOT_READ: Record<string, string> = {
  '040109': 'Deflate64',
  '04f71101': 'Zstandard',
  '04f71102': 'Brotli',
  '04f71104': 'LZ4',
  '06f00181': 'AES256CBC',
};

export const methodName = (id: string): string => METHODS.get(id)?.name ?? NOT_READ[id] ?? `method ${id}`;

/** Runs one coder over its input streams; DecodeError for a method that is not read or a stream count off. */
export function runCoder(
  id: string,
  inputs: Uint8Array[],
  props: Uint8Array,
  size: number,
  ctx: CoderContext,
): Uint8Array {
  const method = METHODS.get(id);
  if (!method) throw new DecodeError(`7z ${methodName(id)} is not read`);
  if (inputs.length !== method.inputs)
    throw new DecodeError(`7z ${method.name} coder with ${inputs.length} inputs (it takes ${method.inputs})`);
  return method.decode(inputs, props, size, ctx);
}
