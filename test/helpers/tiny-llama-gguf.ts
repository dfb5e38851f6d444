// A llama-architecture model small enough to write in a test (about 20 KB): one block, 8-wide embeddings,
// two attention heads of 4, a feed-forward of 16, and a SentencePiece vocabulary of the three special tokens,
// the 256 byte tokens (llama.cpp's SentencePiece tokenizer spells bytes it has no piece for as <0xXX>, and
// looks up <0x0A> for the newline) and two words. Its weights are seeded noise except where they decide
// what it says: every input embedding is the same vector plus noise, so after the final RMS norm the
// hidden state points the same way for any input, and the output matrix (tied to the embeddings) gives the
// token `WORD` ten times the others' logit. Greedy decoding therefore writes WORD again and again, which a
// test can check exactly.
import { seededRandom } from '../../src/shared/seeded-random.js';
import { writeGguf, type GgufTensor, type GgufValue } from './gguf-writer.js';

/** The piece the model always generates. */
export const TINY_LLAMA_WORD = 'hi';

const EMBD = 8;
const HEADS = 2;
const FF = 16;
/** Room for the longest question the uses ask: the byte-level vocabulary spends a token per character. */
const CONTEXT = 4096;

/** llama.cpp's token types: normal 1, unknown 2, control 3, byte 6. */
const vocabulary: Array<[piece: string, type: number]> = [
  ['<unk>', 2],
  ['<s>', 3],
  ['</s>', 3],
  ...Array.from({ length: 256 }, (_, b): [string, number] => [
    `<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`,
    6,
  ]),
  ['\u2581', 1],
  [TINY_LLAMA_WORD, 1],
];
const WORD_ID = vocabulary.length - 1;

/** The bytes of the tiny model. */
export function tinyLlamaGguf(): Buffer {
  const random = seededRandom(12);
  const noise = (n: number, scale: number) => Float32Array.from({ length: n }, () => (random() - 0.5) * scale);
  const ones = (n: number) => new Float32Array(n).fill(1);

  const direction = Float32Array.from({ length: EMBD }, (_, i) => (i % 2 ? 1 : -1) * (1 + i / EMBD));
  const embeddings = noise(EMBD * vocabulary.length, 0.02);
  for (let t = 0; t < vocabulary.length; t++)
    for (let i = 0; i < EMBD; i++) embeddings[t * EMBD + i]! += direction[i]! * (t === WORD_ID ? 10 : 1);

  const block = (name: string, dims: number[], data: Float32Array): GgufTensor => ({
    name: `blk.0.${name}.weight`,
    dims,
    data,
  });
  const tensors: GgufTensor[] = [
    { name: 'token_embd.weight', dims: [EMBD, vocabulary.length], data: embeddings },
    { name: 'output_norm.weight', dims: [EMBD], data: ones(EMBD) },
    block('attn_norm', [EMBD], ones(EMBD)),
    block('attn_q', [EMBD, EMBD], noise(EMBD * EMBD, 0.1)),
    block('attn_k', [EMBD, EMBD], noise(EMBD * EMBD, 0.1)),
    block('attn_v', [EMBD, EMBD], noise(EMBD * EMBD, 0.1)),
    block('attn_output', [EMBD, EMBD], noise(EMBD * EMBD, 0.01)),
    block('ffn_norm', [EMBD], ones(EMBD)),
    block('ffn_gate', [EMBD, FF], noise(EMBD * FF, 0.1)),
    block('ffn_up', [EMBD, FF], noise(EMBD * FF, 0.1)),
    block('ffn_down', [FF, EMBD], noise(FF * EMBD, 0.01)),
  ];

  const u32 = (value: number): GgufValue => ({ type: 'u32', value });
  const metadata: Array<[string, GgufValue]> = [
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: 'binlens-tiny-test' }],
    ['llama.context_length', u32(CONTEXT)],
    ['llama.embedding_length', u32(EMBD)],
    ['llama.block_count', u32(1)],
    ['llama.feed_forward_length', u32(FF)],
    ['llama.attention.head_count', u32(HEADS)],
    ['llama.attention.head_count_kv', u32(HEADS)],
    ['llama.rope.dimension_count', u32(EMBD / HEADS)],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'f32', value: 1e-5 }],
    ['tokenizer.ggml.model', { type: 'string', value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: 'array', of: 'string', values: vocabulary.map(([piece]) => piece) }],
    ['tokenizer.ggml.scores', { type: 'array', of: 'f32', values: vocabulary.map(() => 0) }],
    ['tokenizer.ggml.token_type', { type: 'array', of: 'i32', values: vocabulary.map(([, type]) => type) }],
    ['tokenizer.ggml.unknown_token_id', u32(0)],
    ['tokenizer.ggml.bos_token_id', u32(1)],
    ['tokenizer.ggml.eos_token_id', u32(2)],
  ];
  return writeGguf(metadata, tensors);
}
