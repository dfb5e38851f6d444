// Where a file's blocks are: runs of logical blocks mapped to physical ones, merged when contiguous, in
// flat arrays (a several-MB file mapped one block at a time is still a handful of runs).

export class Runs {
  readonly logical: number[] = [];
  readonly physical: number[] = [];
  readonly count: number[] = [];
  /** Uninitialised extents: allocated, but read as zeros. */
  readonly zeroed: boolean[] = [];

  get length(): number {
    return this.logical.length;
  }

  push(logical: number, physical: number, count: number, zeroed = false): void {
    const last = this.length - 1;
    if (
      last >= 0 &&
      this.zeroed[last] === zeroed &&
      this.logical[last]! + this.count[last]! === logical &&
      this.physical[last]! + this.count[last]! === physical
    ) {
      this.count[last]! += count;
      return;
    }
    this.logical.push(logical);
    this.physical.push(physical);
    this.count.push(count);
    this.zeroed.push(zeroed);
  }
}
