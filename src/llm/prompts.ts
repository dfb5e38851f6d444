// What Binlens asks the model, in its own words. Each use is one system message (the task and the form of
// the answer) and one user message (the code, with what the analysis knows).
import type { ChatMessage } from './provider.js';

/**
 * Most characters of C a summary or names question quotes: decompiled C runs 3–4 characters a token, so
 * 16 KB is 4–5k tokens, which leaves an 8k window room for the instructions and the answer. A longer
 * function is asked about its first part.
 */
export const MAX_QUOTED_C_CHARS = 16_000;

/** The function's text, cut at a line end when it is longer than a question may quote. */
function quotedC(functionC: string): string {
  if (functionC.length <= MAX_QUOTED_C_CHARS) return functionC;
  const cut = functionC.lastIndexOf('\n', MAX_QUOTED_C_CHARS);
  const shown = functionC.slice(0, cut > 0 ? cut : MAX_QUOTED_C_CHARS);
  const hidden = functionC.slice(shown.length).split('\n').length - 1;
  return `${shown}\n/* … ${hidden} more lines not shown */`;
}

const fence = (c: string) => '```c\n' + c + '\n```';

export function summaryQuestion(functionName: string, functionC: string, facts: readonly string[]): ChatMessage[] {
  const known = facts.length ? `What the analysis found:\n${facts.map((f) => `- ${f}`).join('\n')}\n\n` : '';
  return [
    {
      role: 'system',
      content:
        'You help a reverse engineer read C that a decompiler produced from a binary. Describe what the ' +
        'function does in two to five plain sentences: its purpose, what it takes and returns, and anything ' +
        'that matters for security (memory it writes, input it trusts, processes, files or network it uses). ' +
        'Variable names such as rax_3 are machine registers; do not mention them. Answer with prose only: no ' +
        'code, no headings, no lists.',
    },
    { role: 'user', content: `Function ${functionName}.\n\n${known}${fence(quotedC(functionC))}` },
  ];
}

export function namesQuestion(functionC: string): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'You suggest names for decompiled C. Reply with exactly one JSON object and nothing else, in this ' +
        'form: {"function_name": "name or null", "variables": {"current_name": "suggested_name"}}. ' +
        'Suggest a function name only when the code makes its purpose clear. Under "variables", list only ' +
        'parameters, locals and globals that appear in the code and whose role you can tell. Every ' +
        'suggested name must be a C identifier in snake_case, not a C keyword, and not a name the code ' +
        'already uses.',
    },
    { role: 'user', content: fence(quotedC(functionC)) },
  ];
}

export function refineQuestion(functionName: string, functionC: string): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'You rewrite decompiled C so that a person can read it, without changing what it computes for any ' +
        'input. Give variables meaningful names, turn gotos into loops and conditionals where the flow ' +
        'allows, and drop casts that change nothing. Keep the function name, return type and parameter ' +
        'types exactly as they are, and call other functions exactly as the code does. Write standard C11 ' +
        'with only the types the code already uses. Do not add #include or other preprocessor lines, other ' +
        'functions or global definitions. Reply with the complete function definition in one ```c block and ' +
        'nothing else.',
    },
    { role: 'user', content: `Rewrite ${functionName}:\n\n${fence(functionC)}` },
  ];
}
