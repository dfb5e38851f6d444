// A file of a guest's virtual file system: its bytes, growing as the guest writes past the end.

export class VirtualFile {
  data: Uint8Array;
  constructor(data: Uint8Array = new Uint8Array()) {
    this.data = data;
  }

  /** Writes `bytes` at `at`, growing the file. */
  write(at: number, bytes: Uint8Array): void {
    if (at + bytes.length > this.data.length) {
      const grown = new Uint8Array(at + bytes.length);
      grown.set(this.data);
      this.data = grown;
    }
    this.data.set(bytes, at);
  }
}
