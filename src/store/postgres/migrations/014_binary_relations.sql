-- Child binaries (issues 13 and 14): a binary found inside another — a dump or dropped file of its emulated
-- run, a file extracted from a firmware image — with where it was found. A child is a binary of its own
-- (its own row in binaries, analysed or not); user_id is whom it was found for: the one who may analyse it.
CREATE TABLE binary_relations (
  child_binary_id BIGINT PRIMARY KEY REFERENCES binaries(id) ON DELETE CASCADE,
  parent_binary_id BIGINT NOT NULL REFERENCES binaries(id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  origin TEXT NOT NULL,
  name TEXT NOT NULL,
  location TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  UNIQUE (parent_binary_id, origin, location)
);
CREATE INDEX binary_relations_user ON binary_relations(user_id);
-- A binary has at most one analysis: a child binary is analysed once, whoever asks first.
CREATE UNIQUE INDEX analyses_binary ON analyses(binary_id);
