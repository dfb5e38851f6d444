-- Collections: named, scoped sets of binaries with tags. A binary is an analysis's `binary_id` (one each),
-- so a member disappears with its analysis. `tags` numbers every tag name that analyses or collections use
-- (the wire's `tag_id`); triggers keep it filled, so no write path can forget it.
CREATE TABLE collections (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id),
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  scope TEXT NOT NULL,
  model_name TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX collections_user ON collections (user_id);
CREATE INDEX collections_scope ON collections (scope);

CREATE TABLE collection_binaries (
  collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
  binary_id INTEGER NOT NULL REFERENCES analyses(binary_id) ON DELETE CASCADE,
  PRIMARY KEY (collection_id, binary_id)
);
CREATE INDEX collection_binaries_binary ON collection_binaries (binary_id);

CREATE TABLE collection_tags (
  collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  PRIMARY KEY (collection_id, name)
);
CREATE INDEX collection_tags_name ON collection_tags (name);
CREATE INDEX analysis_tags_name ON analysis_tags (name);

CREATE TABLE tags (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE
);
INSERT INTO tags (name) SELECT DISTINCT name FROM analysis_tags ORDER BY name;
CREATE TRIGGER analysis_tags_vocabulary AFTER INSERT ON analysis_tags
BEGIN
  INSERT OR IGNORE INTO tags (name) VALUES (NEW.name);
END;
CREATE TRIGGER collection_tags_vocabulary AFTER INSERT ON collection_tags
BEGIN
  INSERT OR IGNORE INTO tags (name) VALUES (NEW.name);
END;
