// A one-line progress bar for a terminal: redrawn in place with a carriage return, erased when done.
// Written here rather than taken from a package: it is one line of text and a timer.

export interface ProgressState {
  stage: string;
  /** 0..1, as the pipeline reports it: it moves at stage boundaries only. */
  fraction: number;
  elapsedMs: number;
  /** Counts redraws; turns the spinner, which shows the work is alive inside a long stage. */
  tick: number;
}

const SPINNER = '|/-\\';
const ERASE_LINE = '\r\x1b[2K';

/** The bar's text for `width` columns, e.g. `[######----------]  15%  recover  | 3.4 s`. */
export function renderProgress(s: ProgressState, width: number): string {
  const fraction = Math.min(Math.max(s.fraction, 0), 1);
  const tail = `${String(Math.floor(fraction * 100)).padStart(3)}%  ${s.stage}  ${SPINNER[s.tick % SPINNER.length]} ${(s.elapsedMs / 1000).toFixed(1)} s`;
  // The bar takes what the text leaves, up to 40 cells, and the line stops short of the last column (writing
  // there wraps on some terminals); with room for fewer than 10 cells the text goes alone.
  const cells = Math.min(40, width - 1 - tail.length - 4);
  if (cells < 10) return tail.slice(0, Math.max(width - 1, 0));
  const done = Math.round(fraction * cells);
  return `[${'#'.repeat(done)}${'-'.repeat(cells - done)}]  ${tail}`;
}

/** Draws the bar on `out` every `intervalMs` and at once on each update, until stopped. */
export class ProgressBar {
  private state: ProgressState = { stage: 'starting', fraction: 0, elapsedMs: 0, tick: 0 };
  private readonly started = performance.now();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly out: NodeJS.WriteStream,
    intervalMs = 100,
  ) {
    this.timer = setInterval(() => this.draw(), intervalMs);
    this.draw();
  }

  update(stage: string, fraction: number): void {
    this.state = { ...this.state, stage, fraction };
    this.draw();
  }

  /** Erases the bar, leaving the line for whatever is printed next. */
  stop(): void {
    clearInterval(this.timer);
    this.out.write(ERASE_LINE);
  }

  private draw(): void {
    this.state = { ...this.state, elapsedMs: performance.now() - this.started, tick: this.state.tick + 1 };
    this.out.write(ERASE_LINE + renderProgress(this.state, this.out.columns || 80));
  }
}
