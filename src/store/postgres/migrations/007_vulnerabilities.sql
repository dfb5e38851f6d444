-- The local vulnerability database: OSV records an administrator imports (`binlens vulns import`), found
-- by the package names they affect. Re-importing a record replaces it.
CREATE TABLE osv_records (
  id TEXT PRIMARY KEY,
  modified TEXT NOT NULL,
  document TEXT NOT NULL,
  imported_at BIGINT NOT NULL
);
CREATE TABLE osv_packages (
  name TEXT NOT NULL,
  record_id TEXT NOT NULL REFERENCES osv_records(id) ON DELETE CASCADE,
  PRIMARY KEY (name, record_id)
);
