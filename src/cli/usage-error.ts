/**
 * The command line was wrong (exit code 2, against 1 for a command that ran and failed). Without a
 * message the general usage is printed; with one, that line alone.
 */
export class UsageError extends Error {}
