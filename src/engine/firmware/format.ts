// What every container reader (archive, compressed stream, filesystem, boot image) provides, so that the
// unpacker can find its chunks anywhere in an image, extract them and recurse into what they hold. One
// reader per format, in formats/; the list of them is formats/index.ts.

/** What an entry of a container is. Only files carry bytes; the others are recorded, never created. */
export type EntryKind = 'file' | 'dir' | 'symlink' | 'hardlink' | 'device' | 'fifo' | 'socket';

const KIND_BY_UNIX_TYPE: Readonly<Record<number, EntryKind>> = {
  0o010000: 'fifo',
  0o020000: 'device',
  0o040000: 'dir',
  0o060000: 'device',
  0o100000: 'file',
  0o120000: 'symlink',
  0o140000: 'socket',
};

/** What a Unix mode's type bits (S_IFMT) make an entry; undefined for bits no file type has. */
export const unixKind = (mode: number): EntryKind | undefined => KIND_BY_UNIX_TYPE[mode & 0o170000];

export interface Entry {
  /**
   * Its path inside the container, '/'-separated, exactly as the container names it: untrusted (it may hold
   * `..`, absolute paths, NULs); the sink that writes it confines it.
   */
  path: string;
  kind: EntryKind;
  /** A file's bytes. */
  data?: Uint8Array;
  /** Where a symbolic or hard link points, as the container says. */
  target?: string;
  /** Unix permission and type bits, where the container has them. */
  mode?: number;
}

/** What a reader may use while it probes or extracts. */
export interface ReadContext {
  /**
   * Bytes the reader may still decode (its decompressors' bound): the task's budget left, so a
   * decompression bomb ends as OutputLimitError instead of exhausting memory.
   */
  remaining(): number;
  /** The password the task was given (encrypted zip and 7z entries), or null. */
  password: string | null;
  /** A recoverable problem inside the chunk (one entry unreadable); extraction goes on with the rest. */
  problem(message: string): void;
}

/** A chunk a reader recognised: its extent, and how to list what it holds. */
export interface Probed {
  /** Bytes from the chunk's start to its end. */
  size: number;
  /** A few words on what it is (version, compression, entry count …) for the report. */
  description?: string;
  /**
   * Its entries, one at a time so large containers never sit in memory whole. Throws DecodeError when the
   * container turns out unreadable (entries already given are kept).
   */
  entries(ctx: ReadContext): Iterable<Entry>;
}

export interface FirmwareFormat {
  /** Short lower-case name, as the report and the offset paths show it: `squashfs`, `gzip`, `uimage` … */
  name: string;
  /**
   * Byte strings found at `at` bytes into the chunk (default 0): the scan looks for these and probes each
   * hit. Every format has at least one.
   */
  magics: readonly { bytes: readonly number[]; at?: number }[];
  /**
   * The chunk is an executable carved whole (ELF, PE, Mach-O): one that spans its whole file is that file,
   * not a container, and only what follows it (an overlay) is looked into.
   */
  executable?: boolean;
  /**
   * Whether a valid chunk of this format starts at `offset` of `data`, and its extent. Bounded: reads only
   * what the structure says, never loops on what the bytes claim, and returns null for anything that is not
   * this format (false hits of the magic are common).
   */
  probe(data: Uint8Array, offset: number, ctx: ReadContext): Probed | null;
}
