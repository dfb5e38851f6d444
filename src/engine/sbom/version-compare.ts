// Library version order for vulnerability ranges: dotted numbers compared numerically, a trailing letter
// (OpenSSL's 1.1.1w) after the bare number, pre-release tags (`-rc1`, `~beta`) before it.

type Part = number | string;

function parts(v: string): { main: Part[]; pre: string | null } {
  const m = /^v?([0-9][0-9a-z.]*?)(?:[-~+](.*))?$/i.exec(v.trim());
  const core = m ? m[1]! : v;
  const pre = m?.[2] ?? null;
  const main: Part[] = [];
  for (const [, num, word] of core.matchAll(/(\d+)|([a-z]+)/gi))
    main.push(num !== undefined ? Number(num) : word!.toLowerCase());
  // `+build` metadata does not order; `-rc1`/`~beta` do.
  return { main, pre: pre !== null && /^(alpha|beta|rc|pre|dev)/i.test(pre) ? pre.toLowerCase() : null };
}

/** Negative when a < b, 0 when equal, positive when a > b. */
export function compareVersions(a: string, b: string): number {
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < Math.max(x.main.length, y.main.length); i++) {
    const p = x.main[i];
    const q = y.main[i];
    if (p === q) continue;
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    if (typeof p === 'number' && typeof q === 'number') return p - q;
    // A number sorts before a letter suffix at the same place: 1.1.1 < 1.1.1a.
    if (typeof p === 'number') return -1;
    if (typeof q === 'number') return 1;
    return p < q ? -1 : 1;
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === null) return 1;
  if (y.pre === null) return -1;
  return x.pre < y.pre ? -1 : 1;
}
