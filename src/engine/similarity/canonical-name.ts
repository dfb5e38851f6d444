// The source-level name of a symbol: GCC's clone and split suffixes removed (`foo.constprop.0`,
// `foo.isra.0`, `foo.part.0`, `foo.cold`, `foo.lto_priv.0`) and Windows stdcall decoration (`_foo@12`).
// The same source function carries different suffixes at different -O levels, so names are compared and
// counted in this form.

const CLONE_SUFFIX = /(\.(constprop|isra|part|cold|lto_priv|localalias|clone)(\.\d+)?)+$/;
const STDCALL = /^_(.+)@\d+$/;

export function canonicalName(name: string): string {
  const bare = name.replace(CLONE_SUFFIX, '');
  const stdcall = STDCALL.exec(bare);
  return stdcall ? stdcall[1]! : bare;
}

/** Names the analysis gave a function it could not name (`sub_4010a0`): the ones unstripping may replace. */
export const isPlaceholderName = (name: string): boolean => /^sub_[0-9a-f]+$/i.test(name);
