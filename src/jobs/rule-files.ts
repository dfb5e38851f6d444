// Capability rules from disk: the rules/ shipped with Binlens plus any directories an administrator names
// (BINLENS_RULES_DIRS). The engine parses and compiles; reading files is the edge's job. A file that does
// not parse is reported with its path and skipped, so one broken rule never takes the others down.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileRules, parseRule, RuleError, type Rule, type RuleSet } from '../engine/capabilities/index.js';

export interface RuleFileProblem {
  /** The file (or directory) at fault. */
  source: string;
  message: string;
}

export interface LoadedRules {
  rules: RuleSet;
  /** Files that failed to read or parse, missing directories, and rules the compiler dropped. */
  problems: RuleFileProblem[];
  /** Rule files read, parsed or not. */
  files: number;
}

const RULE_FILE = /\.ya?ml$/i;

/** The package root: the nearest ancestor holding package.json (this file runs from src/ or dist/src/). */
function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  return dir;
}

/** The rule set Binlens ships: rules/ at the package root. */
export const shippedRulesDir = (): string => path.join(packageRoot(), 'rules');

/** A path below the rule directory with a dot-folder (`.github/workflows/*.yml` in a rules checkout). */
const HIDDEN = /(^|[/\\])\./;

/**
 * `.yml`/`.yaml` files under `dir`, recursively, outside dot-folders, sorted so the load order (and
 * first-wins duplicates) is stable.
 */
export async function listRuleFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && RULE_FILE.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((p) => !HIDDEN.test(path.relative(dir, p)))
    .sort();
}

/** Reads, parses and compiles every rule file of `dirs`, in order; earlier directories win name clashes. */
export async function loadRuleDirectories(dirs: string[]): Promise<LoadedRules> {
  const problems: RuleFileProblem[] = [];
  const rules: Rule[] = [];
  let files = 0;
  for (const dir of dirs) {
    let list: string[];
    try {
      list = await listRuleFiles(dir);
    } catch (err) {
      problems.push({ source: dir, message: `cannot read the rule directory: ${(err as Error).message}` });
      continue;
    }
    for (const file of list) {
      files++;
      try {
        rules.push(...parseRule(await readFile(file, 'utf8'), file).rules);
      } catch (err) {
        problems.push({ source: file, message: err instanceof RuleError ? err.reason : (err as Error).message });
      }
    }
  }
  const set = compileRules(rules);
  problems.push(...set.problems);
  return { rules: set, problems, files };
}

/** The shipped rules plus the configured extra directories. */
export const loadCapabilityRules = (extraDirs: string[]): Promise<LoadedRules> =>
  loadRuleDirectories([shippedRulesDir(), ...extraDirs]);
