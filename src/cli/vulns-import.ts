// `binlens vulns import <dir>`: OSV JSON files (one record per file, as osv.dev's exports ship them, or an
// array of records) into the local vulnerability database. Nothing is fetched: the administrator brings
// the files. A file that fails to parse is reported and skipped; the rest are imported.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { affectedPackageNames, OsvError, parseOsvRecord } from '../engine/sbom/index.js';
import type { Runtime } from '../main/index.js';
import { UsageError } from './usage-error.js';

/** An OSV record is a few KiB; a file this large is not one. */
const MAX_FILE = 64 * 1024 * 1024;
const MAX_DEPTH = 16;
/** Records per transaction: progress is kept if a later file breaks the import. */
const BATCH = 2000;

type OsvRecordRow = Parameters<Runtime['store']['vulnerabilities']['upsert']>[0][number];

export interface ImportReport {
  files: number;
  records: number;
  refused: { file: string; reason: string }[];
}

function* jsonFiles(dir: string, depth = 0): Generator<string> {
  if (depth > MAX_DEPTH) return;
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* jsonFiles(p, depth + 1);
    else if (entry.isFile() && entry.name.toLowerCase().endsWith('.json')) yield p;
  }
}

function recordsOf(file: string): OsvRecordRow[] {
  if (statSync(file).size > MAX_FILE) throw new OsvError(`larger than ${MAX_FILE} bytes`);
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new OsvError(`not JSON: ${(err as Error).message}`);
  }
  return (Array.isArray(doc) ? doc : [doc]).map((d) => {
    const r = parseOsvRecord(d);
    const modified =
      typeof (d as { modified?: unknown }).modified === 'string' ? (d as { modified: string }).modified : '';
    return { id: r.id, modified, document: JSON.stringify(d), packages: affectedPackageNames(r) };
  });
}

export async function importOsvDirectory(
  dir: string,
  save: (rows: OsvRecordRow[]) => Promise<void>,
): Promise<ImportReport> {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // reported below
  }
  if (!isDir) throw new UsageError(`vulns import: ${dir} is not a directory`);
  const report: ImportReport = { files: 0, records: 0, refused: [] };
  let pending: OsvRecordRow[] = [];
  const flush = async () => {
    await save(pending);
    report.records += pending.length;
    pending = [];
  };
  for (const file of jsonFiles(dir)) {
    report.files++;
    try {
      pending.push(...recordsOf(file));
    } catch (err) {
      if (!(err instanceof OsvError)) throw err;
      report.refused.push({ file: path.relative(dir, file), reason: err.message });
    }
    if (pending.length >= BATCH) await flush();
  }
  await flush();
  return report;
}
