/** Append-only column of numbers that becomes a typed array once recovery is done. */
export class Column {
  private data: Float64Array;
  length = 0;

  constructor(initial = 1024) {
    this.data = new Float64Array(initial);
  }

  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }

  toFloat64(): Float64Array {
    return this.data.slice(0, this.length);
  }

  toInt32(): Int32Array {
    return Int32Array.from(this.data.subarray(0, this.length));
  }

  toUint8(): Uint8Array {
    return Uint8Array.from(this.data.subarray(0, this.length));
  }
}
