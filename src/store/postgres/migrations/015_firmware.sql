-- Firmware unpacking (issue 14): one task per uploaded image, its image a binary (binary_id) whose
-- children (binary_relations, origin 'firmware') are the executables found in it. The password is kept
-- only until the task has run; the report is the extraction's JSON (tree, files, problems).
CREATE TABLE firmware_tasks (
  id TEXT PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  binary_id BIGINT NOT NULL REFERENCES binaries(id) ON DELETE CASCADE,
  filename TEXT NOT NULL,
  scope TEXT NOT NULL,
  status TEXT NOT NULL,
  password TEXT,
  progress TEXT,
  report TEXT,
  error TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX firmware_tasks_binary ON firmware_tasks(binary_id);
CREATE INDEX firmware_tasks_user ON firmware_tasks(user_id);
