import path from 'node:path';
import { importOsvDirectory } from '../../src/cli/vulns-import.js';
import { createStore, openDatabase } from '../../src/store/index.js';

/** Imports the OSV fixture feed (test/fixtures/osv: 6 records) into a test database, as `binlens vulns import`. */
export async function importOsvFixtures(databaseUrl: string): Promise<number> {
  const store = createStore(openDatabase(databaseUrl));
  try {
    const report = await importOsvDirectory(path.resolve('test', 'fixtures', 'osv'), (rows) =>
      store.vulnerabilities.upsert(rows),
    );
    return report.records;
  } finally {
    await store.driver.close();
  }
}
