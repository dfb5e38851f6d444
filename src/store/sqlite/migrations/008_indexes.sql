-- Every foreign key leads an index (test/store/migrations.test.ts keeps it so): deleting a parent row finds
-- its children by index instead of scanning the child table once per parent row. Without xrefs_function,
-- deleting an analysis's functions scanned every xrefs row once per function (a re-analysis of busybox,
-- 150k xrefs, held SQLite's one connection for 138 s).
CREATE INDEX users_team ON users (team_id);
CREATE INDEX uploads_sha256 ON uploads (sha256);
CREATE INDEX binaries_sha256 ON binaries (sha256);
CREATE INDEX comments_user ON comments (user_id);
CREATE INDEX function_name_history_user ON function_name_history (user_id);
CREATE INDEX similarity_runs_user ON similarity_runs (user_id);
CREATE INDEX osv_packages_record ON osv_packages (record_id);
CREATE INDEX xrefs_function ON xrefs (function_id);
-- Requeue and deletion end an analysis's unfinished jobs: (analysis_id, state).
CREATE INDEX jobs_analysis ON jobs (analysis_id, state);
-- Matching reads an analysis's calls; clearing an analysis walks them in site order, a chunk at a time.
CREATE INDEX function_calls_analysis ON function_calls (analysis_id, site);

-- LSH buckets belong to the analysis, not to each function: an analysis's buckets are written and cleared
-- in key (bucket) order, a chunk at a time (src/store/analysis-rows.ts). Buckets are random, so a second
-- index by function made every row of a chunk dirty its own page, which each chunk's commit wrote again:
-- 50 000 functions' 800 000 buckets took 5.4 s to write and 6.8 s to clear in chunks on SQLite, 0.55 s and
-- 0.35 s without it. Buckets go when their analysis's results are cleared or the analysis is deleted.
CREATE TABLE function_lsh_new (
  bucket INTEGER NOT NULL,
  function_id INTEGER NOT NULL,
  analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
  PRIMARY KEY (bucket, function_id)
) WITHOUT ROWID;
INSERT INTO function_lsh_new (bucket, function_id, analysis_id)
  SELECT bucket, function_id, analysis_id FROM function_lsh;
DROP TABLE function_lsh;
ALTER TABLE function_lsh_new RENAME TO function_lsh;
CREATE INDEX function_lsh_analysis ON function_lsh (analysis_id, bucket);
