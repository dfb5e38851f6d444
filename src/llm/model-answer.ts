/**
 * The answer without the Markdown code fence models put around code and JSON even when told not to: the
 * first fenced block's content when the answer has one, else the whole answer; trimmed either way.
 */
export function unfenced(answer: string): string {
  const fenced = /```[A-Za-z0-9_+-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```/.exec(answer);
  return (fenced ? fenced[1]! : answer).trim();
}
