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
