/** How long one pipeline stage ran. */
export interface StageTime {
  stage: string;
  ms: number;
}

/**
 * Wall time per stage from the pipeline's progress reports. The pipeline reports each stage once as it
 * begins and in order, so a stage lasts until the next one is reported (or the clock stops).
 */
export class StageClock {
  private readonly times: StageTime[] = [];
  private open: { stage: string; since: number } | null = null;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** `stage` began; a repeated report of the running stage changes nothing. */
  enter(stage: string): void {
    if (this.open?.stage === stage) return;
    this.stop();
    this.open = { stage, since: this.now() };
  }

  /** Ends the running stage, if any. */
  stop(): void {
    if (!this.open) return;
    this.times.push({ stage: this.open.stage, ms: this.now() - this.open.since });
    this.open = null;
  }

  /** The stages that have ended, in order. */
  stages(): readonly StageTime[] {
    return this.times;
  }
}
