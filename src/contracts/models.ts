// Model names encode architecture and platform (`binnet-0.7-<arch>-<bits>-<platform>`). The first nine are the
// reference's ModelName values; the rest name, in its scheme, the architectures and platforms Binlens also
// analyses (32-bit ARM and Thumb, MIPS32 of either byte order, macOS). Appended, so `model_id` (the
// position) of the reference's nine stays as it is. A binary with no model here is refused with 400.
export const MODEL_NAMES = [
  'binnet-0.7-x86-64-windows',
  'binnet-0.7-x86-64-linux',
  'binnet-0.7-x86-32-windows',
  'binnet-0.7-x86-32-linux',
  'binnet-0.7-arm-64-windows',
  'binnet-0.7-arm-64-linux',
  'binnet-0.7-x86-64-android',
  'binnet-0.7-x86-32-android',
  'binnet-0.7-arm-64-android',
  'binnet-0.7-arm-32-linux',
  'binnet-0.7-arm-32-android',
  'binnet-0.7-mips-32-linux',
  'binnet-0.7-x86-64-macos',
  'binnet-0.7-arm-64-macos',
] as const;

export type ModelNameValue = (typeof MODEL_NAMES)[number];

/** Stable numeric id of a model, as the wire's `model_id` (1-based position in MODEL_NAMES). */
export const modelId = (name: string): number => MODEL_NAMES.indexOf(name as ModelNameValue) + 1;

export const isModelName = (name: string): name is ModelNameValue => MODEL_NAMES.includes(name as ModelNameValue);
