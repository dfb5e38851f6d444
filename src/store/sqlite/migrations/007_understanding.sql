-- What an analysis learns beyond code. The local vulnerability database: OSV records an administrator
-- imports (`binlens vulns import`), found by the package names they affect; re-importing replaces a record.
CREATE TABLE osv_records (
  id TEXT PRIMARY KEY,
  modified TEXT NOT NULL,
  document TEXT NOT NULL,
  imported_at INTEGER NOT NULL
);
CREATE TABLE osv_packages (
  name TEXT NOT NULL,
  record_id TEXT NOT NULL REFERENCES osv_records(id) ON DELETE CASCADE,
  PRIMARY KEY (name, record_id)
);

-- Capability features of an analysis (compact JSON), kept apart from its result document: megabytes
-- for large binaries, read only to re-match rules.
CREATE TABLE analysis_features (
  analysis_id INTEGER PRIMARY KEY REFERENCES analyses(id) ON DELETE CASCADE,
  document TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
