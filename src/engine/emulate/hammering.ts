// API hammering: a loop that calls one API from one place over and over without it doing anything worth
// an event (GetTickCount, getppid) to outwait a sandbox's budget. Past a threshold the loop is recorded once,
// its count kept up to date, and its calls stop costing the run's API-call budget, so what the sample does
// after the loop is still seen (instructions and time still bound it).
import type { EmulationEvent } from './events.js';

/** Calls in a row of one API from one place after which the loop is hammering. */
export const HAMMERING = 1000;

export class HammerWatch {
  private key = '';
  private count = 0;
  /** The loop's event, once recorded (null when the system keeps no event for where it runs). */
  private event: EmulationEvent | null = null;

  /**
   * Whether the call of `api` from `site` counts against the budget; `record` makes the hammering event
   * when a loop is first seen.
   */
  counts(api: string, site: number, record: () => EmulationEvent | null): boolean {
    const key = `${api}@${site}`;
    if (key !== this.key) {
      this.key = key;
      this.count = 0;
      this.event = null;
    }
    this.count++;
    if (this.count === HAMMERING) this.event = record();
    if (this.event) this.event.detail.count = this.count;
    return this.count < HAMMERING;
  }

  /** The last call did something (an event): whatever came before was no idle loop. */
  reset(): void {
    this.key = '';
  }
}
