-- Analysis results that the API pages through: functions, their calls, string references and xrefs.
-- A re-analysis deletes and re-inserts an analysis's rows in one transaction.
CREATE TABLE functions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
  vaddr INTEGER NOT NULL,
  size INTEGER NOT NULL,
  name TEXT NOT NULL,
  mangled_name TEXT NOT NULL,
  name_source_type TEXT NOT NULL,
  debug INTEGER NOT NULL,
  source TEXT NOT NULL,
  thumb INTEGER NOT NULL,
  blocks TEXT NOT NULL,
  UNIQUE (analysis_id, vaddr)
);
CREATE INDEX functions_name ON functions (analysis_id, name);

CREATE TABLE function_calls (
  analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
  caller_id INTEGER NOT NULL REFERENCES functions(id) ON DELETE CASCADE,
  callee_id INTEGER REFERENCES functions(id) ON DELETE CASCADE,
  callee_vaddr INTEGER NOT NULL,
  callee_name TEXT NOT NULL,
  is_external INTEGER NOT NULL,
  site INTEGER NOT NULL
);
CREATE INDEX function_calls_caller ON function_calls (caller_id);
CREATE INDEX function_calls_callee ON function_calls (callee_id);

CREATE TABLE string_refs (
  analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
  string_vaddr INTEGER NOT NULL,
  function_id INTEGER NOT NULL REFERENCES functions(id) ON DELETE CASCADE,
  site INTEGER NOT NULL
);
CREATE INDEX string_refs_string ON string_refs (analysis_id, string_vaddr);
CREATE INDEX string_refs_function ON string_refs (function_id);

CREATE TABLE xrefs (
  analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
  from_vaddr INTEGER NOT NULL,
  to_vaddr INTEGER NOT NULL,
  kind TEXT NOT NULL,
  function_id INTEGER REFERENCES functions(id) ON DELETE CASCADE
);
CREATE INDEX xrefs_to ON xrefs (analysis_id, to_vaddr);
CREATE INDEX xrefs_from ON xrefs (analysis_id, from_vaddr);

ALTER TABLE analysis_strings ADD COLUMN encoding TEXT NOT NULL DEFAULT 'ascii';
ALTER TABLE analysis_strings ADD COLUMN section TEXT;
