import { identifiersIn } from './c-identifiers.js';
import { checkCSyntax, type CDiagnostic } from './c-syntax-check.js';
import { LlmError } from './llm-error.js';
import { unfenced } from './model-answer.js';
import { refineQuestion } from './prompts.js';
import type { LlmProvider } from './provider.js';

export interface RefinementInput {
  /** The function's name, as its definition spells it. */
  name: string;
  /** The deterministic C of the function: its definition, exactly as it appears in `unitSource`. */
  functionC: string;
  /**
   * The translation unit the decompiler wrote it in (headers, declarations, the functions). gcc reads all
   * of it for each check, so the function's own unit (as `binlens decompile <file> <function>` writes it)
   * is checked in milliseconds where a whole binary's takes seconds.
   */
  unitSource: string;
}

export interface RefinementOptions {
  /** Longest the model may take, ms; unset: the provider's configured time-out. */
  timeoutMs?: number;
  /** Longest gcc may take over the unit, ms. */
  compileTimeoutMs?: number;
  signal?: AbortSignal;
}

/** The refined function, or the deterministic one and why the model's version was not used. */
export type RefinedDecompilation = { refined: true; code: string } | { refined: false; code: string; reason: string };

/**
 * gcc -fsyntax-only over the largest unit in sight, all of sqlite 3.50.4's x86-64 -O2 build decompiled
 * (695,570 lines, 24 MB), takes 4.8 s on this 2-core VM; 30 s leaves room for a busy machine.
 */
const DEFAULT_COMPILE_TIMEOUT_MS = 30_000;
/**
 * Longest function a refinement asks about: the question and the answer each hold all of it, ~3.5k tokens
 * apiece at 12 KB, which with the instructions fills an 8k window.
 */
const MAX_REFINABLE_C_CHARS = 12_000;
/** Room for the whole function rewritten: decompiled C runs 3–4 characters a token; a third and a margin. */
const answerTokens = (functionC: string) => Math.min(8192, Math.ceil(functionC.length / 3) + 256);
/** How many of gcc's errors a reason quotes. */
const QUOTED_ERRORS = 3;

/** gcc's errors, their lines counted from the refined function's first line where they fall inside it. */
function describe(errors: CDiagnostic[], span: { first: number; last: number }): string {
  const where = (d: CDiagnostic) =>
    d.line >= span.first && d.line <= span.last
      ? `line ${d.line - span.first + 1} of the refined function`
      : d.line > 0
        ? `line ${d.line} of the unit`
        : 'gcc';
  const shown = errors.slice(0, QUOTED_ERRORS).map((d) => `${where(d)}: ${d.message}`);
  const more = errors.length > QUOTED_ERRORS ? ` (and ${errors.length - QUOTED_ERRORS} more)` : '';
  return shown.join('; ') + more;
}

/** The code with its string and character literals blanked, where a directive cannot hide. */
const withoutLiterals = (c: string) => c.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, '""');

/**
 * What is wrong with the model's version before compiling it: empty, not a definition of the same
 * function, or able to reach the preprocessor. An #include would make gcc read any file of the host and
 * quote it in the reason, and the unit already includes what the function needs; so no `#` outside
 * literals (a comment before it does not stop a directive), no digraph `%:`, no trigraph, no `_Pragma`.
 */
function shapeProblem(code: string, name: string): string | null {
  if (!code) return 'the model answered no code';
  // Trigraphs are replaced inside literals too (??/ is a backslash), so ?? counts anywhere.
  if (/#|%:|\b_Pragma\b/.test(withoutLiterals(code)) || code.includes('??'))
    return 'the refined function has preprocessor directives';
  const escaped = name.replace(/[^A-Za-z0-9_]/g, '\\$&');
  if (!new RegExp(`\\b${escaped}\\s*\\(`).test(code) || !code.includes('{'))
    return `the answer is not a definition of ${name}`;
  return null;
}

/**
 * Asks the model for a more readable version of one decompiled function and keeps it only if the unit
 * still compiles with it in place of the deterministic definition (gcc -fsyntax-only -std=c11: no error in
 * the function, none elsewhere that the deterministic unit does not have too), and it calls no function
 * the deterministic code did not (gcc only warns of an undeclared one, which would not link). Anything
 * else — the model unreachable or slow, an answer of the wrong shape, a compile error, no gcc — gives back
 * the deterministic code with the reason. Runs gcc as a child process and waits seconds for the model:
 * callers run it in a job, never in a request.
 */
export async function refineDecompilation(
  provider: LlmProvider,
  input: RefinementInput,
  options: RefinementOptions = {},
): Promise<RefinedDecompilation> {
  const { name, functionC, unitSource } = input;
  const keep = (reason: string): RefinedDecompilation => ({ refined: false, code: functionC, reason });

  if (functionC.length > MAX_REFINABLE_C_CHARS)
    return keep(
      `the function (${functionC.length} characters) is longer than a refinement takes (${MAX_REFINABLE_C_CHARS})`,
    );
  const at = unitSource.indexOf(functionC);
  if (at < 0 || unitSource.indexOf(functionC, at + 1) >= 0)
    return keep("the function's text is not in the unit exactly once");

  let code: string;
  try {
    const answer = await provider.complete(refineQuestion(name, functionC), {
      maxTokens: answerTokens(functionC),
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
    code = unfenced(answer);
  } catch (err) {
    if (err instanceof LlmError) return keep(`the model gave no answer: ${err.message}`);
    throw err;
  }
  const problem = shapeProblem(code, name);
  if (problem) return keep(problem);

  const unit = unitSource.slice(0, at) + code + unitSource.slice(at + functionC.length);
  const compile = (source: string) =>
    checkCSyntax(source, { timeoutMs: options.compileTimeoutMs ?? DEFAULT_COMPILE_TIMEOUT_MS, signal: options.signal });
  const check = await compile(unit);
  if (!check.ran) return keep(`the refined function could not be checked: ${check.reason}`);

  const first = unitSource.slice(0, at).split('\n').length;
  const span = { first, last: first + code.split('\n').length - 1 };
  const inside = (d: CDiagnostic) => d.line >= span.first && d.line <= span.last;
  const errors = check.diagnostics.filter((d) => d.severity === 'error');
  const own = errors.filter(inside);
  if (own.length) return keep(`the refined function does not compile: ${describe(own, span)}`);

  const called = identifiersIn(functionC);
  for (const d of check.diagnostics.filter(inside)) {
    const undeclared = /implicit declaration of function '([A-Za-z_][A-Za-z0-9_]*)'/.exec(d.message)?.[1];
    if (undeclared && !called.has(undeclared))
      return keep(`the refined function calls ${undeclared}, which the unit does not declare`);
  }

  // Errors elsewhere are either the decompiler's own (a whole binary's unit has some: sqlite's -O2 build
  // compiles 95% of its functions) or caused by the new definition (a changed prototype): only the
  // latter reject it, told apart by compiling the deterministic unit, which is paid only when there are any.
  const elsewhere = errors.filter((d) => !inside(d));
  if (elsewhere.length) {
    const baseline = await compile(unitSource);
    if (!baseline.ran) return keep(`the refined function could not be checked: ${baseline.reason}`);
    const shift = functionC.split('\n').length - (span.last - span.first + 1);
    const known = new Map<string, number>();
    for (const d of baseline.diagnostics)
      if (d.severity === 'error') known.set(`${d.line}:${d.message}`, (known.get(`${d.line}:${d.message}`) ?? 0) + 1);
    const added = elsewhere.filter((d) => {
      const key = `${d.line > span.last ? d.line + shift : d.line}:${d.message}`;
      const left = known.get(key) ?? 0;
      known.set(key, left - 1);
      return left <= 0;
    });
    if (added.length) return keep(`the refined function breaks the unit: ${describe(added, span)}`);
  }
  return { refined: true, code };
}
