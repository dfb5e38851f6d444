// Demangling as the engine applies it: only names that look mangled (Itanium `_Z`, Rust `_R`, and their
// Mach-O underscore forms), bounded in length, and any failure leaves the name as it is. The demangler
// itself (WebAssembly read from its package) is the host's to load and pass in: the engine reads no files.

/** A host's demangler: the raw function, which may throw. */
export type DemangleFunction = (name: string) => string;

export type Demangler = (name: string) => string;

/** Names that look mangled are demangled; anything else (and anything that fails) comes back unchanged. */
export function guardedDemangler(demangle: DemangleFunction | null | undefined): Demangler {
  if (!demangle) return (name) => name;
  return (name) => {
    if (!/^(_Z|__Z|_R|___Z)/.test(name) || name.length > 4096) return name;
    try {
      return demangle(name);
    } catch {
      return name;
    }
  };
}
