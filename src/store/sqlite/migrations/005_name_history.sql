-- Every name a function has been given (renames, applied unstrip names, reverts), append-only, and where
-- each function's current name came from. Re-analysis replaces function rows, so an entry is also keyed by
-- (analysis_id, vaddr): deleting the function row nulls function_id, and replace re-points it by vaddr.
-- The source_* ids are provenance (the matched function, its binary and analysis), not references: the
-- source may be re-analysed or deleted later without touching the names it gave.
CREATE TABLE function_name_history (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  function_id INTEGER REFERENCES functions(id) ON DELETE SET NULL,
  analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
  vaddr INTEGER NOT NULL,
  name TEXT NOT NULL,
  mangled_name TEXT NOT NULL,
  name_source_type TEXT NOT NULL,
  debug INTEGER NOT NULL,
  source_function_id INTEGER,
  source_binary_id INTEGER,
  source_analysis_id INTEGER,
  user_id INTEGER NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL,
  evidence TEXT
);
CREATE INDEX function_name_history_function ON function_name_history (function_id, id);
CREATE INDEX function_name_history_vaddr ON function_name_history (analysis_id, vaddr, id);

ALTER TABLE functions ADD COLUMN name_source_function_id INTEGER;
ALTER TABLE functions ADD COLUMN name_source_binary_id INTEGER;
ALTER TABLE functions ADD COLUMN name_source_analysis_id INTEGER;
