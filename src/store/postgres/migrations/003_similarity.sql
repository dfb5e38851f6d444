-- The nearest-function index: each function's vector (int8, 1 KiB) and its LSH buckets (one row a band,
-- `band << bits | key`), looked up by bucket and re-ranked exactly on the vectors. Both go with their
-- function: replaced with it on re-analysis, deleted with it and its analysis.
CREATE TABLE function_vectors (
  function_id BIGINT PRIMARY KEY REFERENCES functions(id) ON DELETE CASCADE,
  vector BYTEA NOT NULL
);

CREATE TABLE function_lsh (
  bucket INTEGER NOT NULL,
  function_id BIGINT NOT NULL REFERENCES functions(id) ON DELETE CASCADE,
  analysis_id BIGINT NOT NULL,
  PRIMARY KEY (bucket, function_id)
);
CREATE INDEX function_lsh_function ON function_lsh (function_id);
