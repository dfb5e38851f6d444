-- Dynamic execution (issue 13): the report of an analysis's emulated run (JSON: processes, events,
-- behaviours, why it stopped), or why it could not run. Its status is analyses.dynamic_execution_status.
CREATE TABLE dynamic_executions (
  analysis_id INTEGER PRIMARY KEY REFERENCES analyses(id) ON DELETE CASCADE,
  report TEXT,
  error TEXT,
  updated_at INTEGER NOT NULL
);
