-- Function matching and unstripping runs: the request, its life (PENDING → RUNNING → COMPLETED, FAILED or
-- CANCELLED), progress and result (JSON). A job on the queue does the work; repeated requests read the row.
CREATE TABLE similarity_runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  analysis_id INTEGER REFERENCES analyses(id) ON DELETE CASCADE,
  request_key TEXT NOT NULL,
  request TEXT NOT NULL,
  status TEXT NOT NULL,
  progress INTEGER NOT NULL DEFAULT 0,
  result TEXT,
  error TEXT,
  applied INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER,
  updated_at INTEGER NOT NULL
);
CREATE INDEX similarity_runs_key ON similarity_runs (request_key, id);
CREATE INDEX similarity_runs_analysis ON similarity_runs (analysis_id, kind, status);
