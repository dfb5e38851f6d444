-- Function data types (issue 11), keyed by (analysis_id, vaddr) like the name history: re-analysis replaces
-- function rows (new ids) but not their addresses, so generated and edited types survive it. `generated` is the
-- engine's latest record, `edited` the owner's version (served instead, never overwritten by a generation);
-- `version` is data_types_version. Status: pending → running → completed | failed (`error` says why).
CREATE TABLE function_data_types (
  analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
  vaddr INTEGER NOT NULL,
  status TEXT NOT NULL,
  error TEXT,
  requested INTEGER NOT NULL DEFAULT 0,
  job_id INTEGER,
  generated TEXT,
  generated_at INTEGER,
  edited TEXT,
  edited_by INTEGER,
  last_change INTEGER,
  source_function_id INTEGER,
  version INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (analysis_id, vaddr)
);
CREATE INDEX function_data_types_status ON function_data_types (analysis_id, status);
CREATE INDEX function_data_types_job ON function_data_types (job_id, status);

-- Every version an edit replaced, with who made it and when (user_id null: the engine).
CREATE TABLE function_data_type_history (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
  vaddr INTEGER NOT NULL,
  version INTEGER NOT NULL,
  record TEXT NOT NULL,
  user_id INTEGER,
  created_at INTEGER NOT NULL,
  replaced_by INTEGER NOT NULL,
  replaced_at INTEGER NOT NULL
);
CREATE INDEX function_data_type_history_vaddr ON function_data_type_history (analysis_id, vaddr, version);

-- The analysis's type table: one entry (data_type_id) per C spelling its functions' data types use, with the
-- definition of structures, unions, enumerations and typedefs, and the types its owner defined.
CREATE TABLE analysis_data_types (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  namespace TEXT NOT NULL,
  kind TEXT NOT NULL,
  size INTEGER,
  definition TEXT,
  source_type TEXT NOT NULL,
  source_analysis_id INTEGER,
  source_function_id INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX analysis_data_types_name ON analysis_data_types (analysis_id, name);
CREATE INDEX analysis_data_types_analysis ON analysis_data_types (analysis_id, id);

-- Which functions (by address) use which entries: the served version's types, kept with every write.
CREATE TABLE data_type_uses (
  data_type_id INTEGER NOT NULL REFERENCES analysis_data_types(id) ON DELETE CASCADE,
  analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
  vaddr INTEGER NOT NULL,
  PRIMARY KEY (data_type_id, vaddr)
);
CREATE INDEX data_type_uses_function ON data_type_uses (analysis_id, vaddr);
