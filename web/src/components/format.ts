// How offsets, addresses, sizes and counts read across the interface.

/** `0x1f0000`: offsets and addresses as analysts and the server's locations write them. */
export const hex = (n: number): string => `0x${n.toString(16)}`;

const UNITS = ['bytes', 'KiB', 'MiB', 'GiB'] as const;

/** `146,032 bytes` below a KiB, else `142.6 KiB`: exact where it is short, readable where it is not. */
export function bytes(n: number): string {
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${n.toLocaleString()} bytes` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** `1 file`, `2 files`. */
export const count = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString()} ${n === 1 ? one : many}`;
