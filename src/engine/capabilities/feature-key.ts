// Canonical keys of features: rules and extractors meet on these strings, so a rule's `api:
// kernel32.CreateFileA` and an import of CreateFileA from KERNEL32.dll are the same key.

/** Features whose values are compared as written (after the normalisation of their kind). */
export const VALUE_FEATURES = [
  'api',
  'import',
  'export',
  'section',
  'mnemonic',
  'characteristic',
  'os',
  'arch',
  'format',
  'function-name',
  'match',
] as const;
export type ValueFeature = (typeof VALUE_FEATURES)[number];

/** `KERNEL32.dll` → `kernel32`: capa names modules without extension, in lower case. */
function moduleName(module: string): string {
  return module.toLowerCase().replace(/\.(dll|drv|sys|exe|ocx|so(\.[0-9.]*)?)$/, '');
}

/** `mod.symbol` with the module normalised; a bare symbol stays as it is. */
function symbolKey(value: string): string {
  const dot = value.lastIndexOf('.');
  if (dot <= 0) return value;
  return `${moduleName(value.slice(0, dot))}.${value.slice(dot + 1)}`;
}

export function valueKey(kind: ValueFeature, value: string): string {
  switch (kind) {
    case 'api':
    case 'import':
      return `${kind}:${symbolKey(value)}`;
    case 'mnemonic':
    case 'os':
    case 'arch':
    case 'format':
    case 'characteristic':
      return `${kind}:${value.toLowerCase()}`;
    default:
      return `${kind}:${value}`;
  }
}

/** Numbers and offsets as decimal integers, so `0x10`, `16` and `0x0010` are one key. */
export const numberKey = (kind: string, value: bigint): string => `${kind}:${value.toString()}`;

export const stringKey = (value: string): string => `string:${value}`;

/**
 * The names a call to an imported function is known by, as capa generates them: with and without the
 * module, and without the A/W suffix of Windows' ANSI/wide pairs (`CreateFileA` → also `CreateFile`).
 */
export function apiNames(module: string | null, symbol: string): string[] {
  const bare = [symbol];
  if (/[a-z0-9][AW]$/.test(symbol)) bare.push(symbol.slice(0, -1));
  const mod = module ? moduleName(module) : null;
  return mod ? [...bare, ...bare.map((s) => `${mod}.${s}`)] : bare;
}
