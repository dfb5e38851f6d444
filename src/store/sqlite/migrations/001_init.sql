-- Times are epoch milliseconds and JSON is text in both dialects, so one Kysely code path serves both.
CREATE TABLE teams (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
);

CREATE TABLE users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  username TEXT NOT NULL UNIQUE,
  email TEXT NOT NULL,
  first_name TEXT NOT NULL DEFAULT '',
  last_name TEXT NOT NULL DEFAULT '',
  role TEXT NOT NULL DEFAULT 'USER',
  team_id INTEGER REFERENCES teams(id),
  api_key_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
);

CREATE TABLE samples (
  sha256 TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  identity TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE uploads (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id),
  sha256 TEXT NOT NULL REFERENCES samples(sha256),
  file_type TEXT NOT NULL,
  filename TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (user_id, sha256, file_type)
);

CREATE TABLE binaries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  sha256 TEXT NOT NULL REFERENCES samples(sha256),
  created_at INTEGER NOT NULL
);

CREATE TABLE analyses (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  binary_id INTEGER NOT NULL UNIQUE REFERENCES binaries(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  sha256 TEXT NOT NULL,
  binary_name TEXT NOT NULL,
  binary_size INTEGER NOT NULL,
  analysis_scope TEXT NOT NULL,
  status TEXT NOT NULL,
  model_name TEXT NOT NULL,
  base_address INTEGER,
  debug_hash TEXT,
  config TEXT NOT NULL,
  dynamic_execution_status TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX analyses_user_created ON analyses (user_id, created_at);
CREATE INDEX analyses_scope_created ON analyses (analysis_scope, created_at);
CREATE INDEX analyses_sha256 ON analyses (sha256);

CREATE TABLE analysis_tags (
  analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  origin TEXT NOT NULL,
  PRIMARY KEY (analysis_id, name)
);

CREATE TABLE analysis_logs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
  line TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX analysis_logs_analysis ON analysis_logs (analysis_id, id);

CREATE TABLE analysis_stages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
  stage TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX analysis_stages_analysis ON analysis_stages (analysis_id, id);

CREATE TABLE analysis_results (
  analysis_id INTEGER PRIMARY KEY REFERENCES analyses(id) ON DELETE CASCADE,
  document TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE analysis_strings (
  analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
  vaddr INTEGER NOT NULL,
  value TEXT NOT NULL,
  source TEXT NOT NULL,
  PRIMARY KEY (analysis_id, vaddr)
);

CREATE TABLE comments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  content TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX comments_analysis ON comments (analysis_id, id);

CREATE TABLE jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  analysis_id INTEGER REFERENCES analyses(id) ON DELETE CASCADE,
  payload TEXT NOT NULL,
  state TEXT NOT NULL,
  priority INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL,
  run_after INTEGER NOT NULL,
  lease_owner TEXT,
  lease_expires_at INTEGER,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX jobs_ready ON jobs (state, priority, run_after, id);
