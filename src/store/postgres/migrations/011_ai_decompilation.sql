-- AI decompilation (issue 12), keyed by (analysis_id, vaddr) like data types, so ratings and comments survive
-- re-analysis. A function's row is its latest decompilation: status pending → running → success | error
-- (`error` says why; no row is "uninitialised"); `result` the JSON of its C, placeholder form and summary;
-- `made_at` when the job read the names it wrote, so a later rename, type edit or re-analysis makes it stale.
CREATE TABLE function_decompilations (
  analysis_id BIGINT NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
  vaddr BIGINT NOT NULL,
  status TEXT NOT NULL,
  error TEXT,
  job_id BIGINT,
  result TEXT,
  made_at BIGINT,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (analysis_id, vaddr)
);
CREATE INDEX function_decompilations_job ON function_decompilations (job_id, status);
-- The analysis's last rename and data-type edit, read on every request to tell a stale result: index seeks.
CREATE INDEX function_name_history_made ON function_name_history (analysis_id, created_at);
CREATE INDEX function_data_types_change ON function_data_types (analysis_id, last_change);

-- One rating of a function's decompilation per user, replaced by the user's next.
CREATE TABLE decompilation_ratings (
  analysis_id BIGINT NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
  vaddr BIGINT NOT NULL,
  user_id BIGINT NOT NULL REFERENCES users(id),
  rating TEXT NOT NULL,
  reason TEXT,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (analysis_id, vaddr, user_id)
);
CREATE INDEX decompilation_ratings_user ON decompilation_ratings (user_id);

-- Comments on a function's decompilation are comments of its analysis with the function's address and the
-- lines they are about (JSON DecompilationCommentContext); vaddr null: a comment on the analysis itself.
ALTER TABLE comments ADD COLUMN vaddr BIGINT;
ALTER TABLE comments ADD COLUMN context TEXT;
CREATE INDEX comments_function ON comments (analysis_id, vaddr, id);
