// ELF numbers shared by several modules (System V gABI and the processor supplements). Numbers used by one
// module only live in that module.

export const EM_386 = 3;
export const EM_MIPS = 8;
export const EM_ARM = 40;
export const EM_X86_64 = 62;
export const EM_AARCH64 = 183;

export const ET_REL = 1;
export const ET_EXEC = 2;
export const ET_DYN = 3;

export const PT_LOAD = 1;
export const PT_DYNAMIC = 2;
export const PT_INTERP = 3;
export const PT_NOTE = 4;
export const PT_GNU_EH_FRAME = 0x6474e550;
export const PT_GNU_STACK = 0x6474e551;
export const PT_GNU_RELRO = 0x6474e552;
/** PT_ARM_EXIDX (ARM only; the same number means other things elsewhere). */
export const PT_ARM_EXIDX = 0x70000001;

export const PF_X = 1;
export const PF_W = 2;
export const PF_R = 4;

export const SHT_NULL = 0;
export const SHT_PROGBITS = 1;
export const SHT_SYMTAB = 2;
export const SHT_STRTAB = 3;
export const SHT_RELA = 4;
export const SHT_HASH = 5;
export const SHT_DYNAMIC = 6;
export const SHT_NOTE = 7;
export const SHT_NOBITS = 8;
export const SHT_REL = 9;
export const SHT_DYNSYM = 11;
export const SHT_INIT_ARRAY = 14;
export const SHT_FINI_ARRAY = 15;
export const SHT_PREINIT_ARRAY = 16;
/** SHT_ARM_EXIDX on ARM, SHT_X86_64_UNWIND on x86-64. */
export const SHT_PROC_UNWIND = 0x70000001;

export const SHF_WRITE = 1;
export const SHF_ALLOC = 2;
export const SHF_EXECINSTR = 4;

export const SHN_UNDEF = 0;

export const STT_NOTYPE = 0;
export const STT_OBJECT = 1;
export const STT_FUNC = 2;
export const STT_SECTION = 3;
export const STT_FILE = 4;
export const STT_COMMON = 5;
export const STT_GNU_IFUNC = 10;

export const STB_LOCAL = 0;
export const STB_GLOBAL = 1;
export const STB_WEAK = 2;
