-- The snapshot contract (DESIGN.md, "The snapshot contract"). An operator exports their
-- production database into exactly these tables and columns; the build reads nothing else.
-- Extra indexes, views and tables are allowed; renaming or dropping these is not.

CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,          -- 'as_of' (ISO 8601 instant), 'source', 'license'
  value TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS companies (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  slug       TEXT NOT NULL UNIQUE,
  category   TEXT NOT NULL,
  website    TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS company_aliases (
  company_id INTEGER NOT NULL,
  alias      TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS people (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  slug       TEXT NOT NULL UNIQUE,
  avatar     TEXT,
  company_id INTEGER
);

-- One complaint. It names a username, a company, a person, or several of them.
CREATE TABLE IF NOT EXISTS reports (
  id         INTEGER PRIMARY KEY,
  username   TEXT,
  category   TEXT,
  company_id INTEGER,
  person_id  INTEGER,
  reporter   TEXT NOT NULL,              -- opaque id; distinct reporters = unique_reports
  confidence INTEGER NOT NULL DEFAULT 50,
  created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS glossary (
  id         INTEGER PRIMARY KEY,
  term       TEXT NOT NULL,
  slug       TEXT NOT NULL UNIQUE,
  definition TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS video_channels (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL,
  slug        TEXT NOT NULL UNIQUE,
  subscribers INTEGER
);

CREATE TABLE IF NOT EXISTS videos (
  id           INTEGER PRIMARY KEY,
  title        TEXT NOT NULL,
  slug         TEXT NOT NULL UNIQUE,
  channel_id   INTEGER,
  published_at TEXT
);

CREATE TABLE IF NOT EXISTS chat_channels (
  id          INTEGER PRIMARY KEY,
  username    TEXT NOT NULL UNIQUE,
  title       TEXT NOT NULL,
  subscribers INTEGER
);

CREATE TABLE IF NOT EXISTS chats (
  id               INTEGER PRIMARY KEY,
  username         TEXT NOT NULL UNIQUE,
  title            TEXT NOT NULL,
  members          INTEGER,
  bot_active       INTEGER NOT NULL DEFAULT 0,
  protected_since  TEXT,
  messages_checked INTEGER NOT NULL DEFAULT 0,
  spam_blocked     INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS blog_posts (
  id           INTEGER PRIMARY KEY,
  title        TEXT NOT NULL,
  slug         TEXT NOT NULL UNIQUE,
  excerpt      TEXT,
  published_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS detection_rules (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  kind       TEXT NOT NULL,
  pattern    TEXT NOT NULL,
  category   TEXT,
  weight     REAL NOT NULL DEFAULT 1,
  enabled    INTEGER NOT NULL DEFAULT 1,
  updated_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS fp_profiles (
  id            INTEGER PRIMARY KEY,
  label         TEXT NOT NULL,
  kind          TEXT NOT NULL,             -- browser | antidetect | bot | http_client
  name          TEXT NOT NULL,
  os_family     TEXT,
  trust_level   TEXT NOT NULL,             -- canonical | community | crowdsource
  observations  INTEGER NOT NULL DEFAULT 0,
  confirmations INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS fp_signals (
  profile_id INTEGER NOT NULL,
  key        TEXT NOT NULL,
  value      TEXT NOT NULL
);

-- Indexes the build's queries use; an operator's export may lack them (the build still works).
CREATE INDEX IF NOT EXISTS company_aliases_company ON company_aliases (company_id);
CREATE INDEX IF NOT EXISTS reports_username ON reports (username);
CREATE INDEX IF NOT EXISTS fp_signals_profile ON fp_signals (profile_id);
CREATE INDEX IF NOT EXISTS fp_signals_key_value ON fp_signals (key, value);
