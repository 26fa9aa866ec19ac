import { MemoryError } from '../../core/domain/errors.ts';
import type { Database } from './sqliteModule.ts';
import { inWriteTransaction } from './database.ts';

interface Migration {
  version: number;
  description: string;
  sql: string;
}

/**
 * Append-only: a released migration is never edited, a schema change is a new entry. Columns
 * follow seed 000 §6; list-valued fields (entities, tags, related_memories) and JSON objects are
 * stored as JSON text, vectors as little-endian float32 BLOBs in their own table so that rows
 * read for listing never drag kilobytes of vector along.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'initial schema',
    sql: `
      CREATE TABLE long_term_memories (
        memory_id        TEXT PRIMARY KEY,
        user_id          TEXT NOT NULL,
        org_id           TEXT,
        project_id       TEXT,
        memory_category  TEXT NOT NULL,
        memory_subtype   TEXT NOT NULL,
        content          TEXT NOT NULL,
        summary          TEXT,
        entities         TEXT NOT NULL,
        tags             TEXT NOT NULL,
        metadata         TEXT NOT NULL,
        event_time       TEXT,
        is_temporal      INTEGER NOT NULL,
        importance       REAL NOT NULL,
        access_count     INTEGER NOT NULL,
        decay_factor     REAL NOT NULL,
        related_memories TEXT NOT NULL,
        supersedes       TEXT,
        superseded_by    TEXT,
        source_session   TEXT,
        source_type      TEXT NOT NULL,
        confidence       REAL NOT NULL,
        pinned           INTEGER NOT NULL,
        embedding_model  TEXT,
        created_at       TEXT NOT NULL,
        last_accessed    TEXT NOT NULL,
        updated_at       TEXT NOT NULL,
        deleted_at       TEXT
      );
      CREATE INDEX idx_ltm_user_created ON long_term_memories (user_id, deleted_at, created_at);
      CREATE INDEX idx_ltm_user_importance ON long_term_memories (user_id, deleted_at, importance);
      CREATE INDEX idx_ltm_user_accessed ON long_term_memories (user_id, deleted_at, last_accessed);

      CREATE TABLE embeddings (
        memory_id TEXT PRIMARY KEY,
        user_id   TEXT NOT NULL,
        model     TEXT NOT NULL,
        dims      INTEGER NOT NULL,
        vector    BLOB NOT NULL
      );
      CREATE INDEX idx_embeddings_user_model ON embeddings (user_id, model);

      CREATE TABLE session_contexts (
        session_id      TEXT PRIMARY KEY,
        user_id         TEXT NOT NULL,
        org_id          TEXT,
        project_id      TEXT,
        total_tokens    INTEGER NOT NULL,
        max_tokens      INTEGER NOT NULL,
        eviction_policy TEXT NOT NULL,
        next_sequence   INTEGER NOT NULL,
        created_at      TEXT NOT NULL,
        last_activity   TEXT NOT NULL,
        expires_at      TEXT,
        config          TEXT NOT NULL
      );
      CREATE INDEX idx_sessions_user ON session_contexts (user_id, last_activity);

      CREATE TABLE working_memory_items (
        item_id         TEXT PRIMARY KEY,
        session_id      TEXT NOT NULL,
        user_id         TEXT NOT NULL,
        content_type    TEXT NOT NULL,
        content         TEXT NOT NULL,
        token_count     INTEGER NOT NULL,
        relevance_score REAL NOT NULL,
        pinned          INTEGER NOT NULL,
        sequence_num    INTEGER NOT NULL,
        created_at      TEXT NOT NULL,
        last_accessed   TEXT NOT NULL,
        metadata        TEXT NOT NULL
      );
      CREATE INDEX idx_wmi_session ON working_memory_items (session_id, sequence_num);
      CREATE INDEX idx_wmi_user ON working_memory_items (user_id);

      CREATE TABLE memory_access_log (
        access_id        TEXT PRIMARY KEY,
        memory_id        TEXT NOT NULL,
        session_id       TEXT,
        user_id          TEXT NOT NULL,
        query_text       TEXT,
        similarity_score REAL,
        tool             TEXT NOT NULL,
        accessed_at      TEXT NOT NULL
      );
      CREATE INDEX idx_access_memory ON memory_access_log (memory_id);
      CREATE INDEX idx_access_user ON memory_access_log (user_id, accessed_at);

      CREATE TABLE change_log (
        seq       INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id   TEXT NOT NULL,
        memory_id TEXT,
        op        TEXT NOT NULL
      );

      CREATE TABLE store_meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
  {
    version: 2,
    description: 'persisted lexical analysis',
    // Analysing text is the slow part of building a lexical index (~70 us per memory); storing the
    // analysed terms lets a process build a 100K-memory index from rows instead of re-analysing.
    sql: `
      CREATE TABLE lexical_documents (
        memory_id        TEXT PRIMARY KEY,
        user_id          TEXT NOT NULL,
        analyzer_version INTEGER NOT NULL,
        length           REAL NOT NULL,
        terms            TEXT NOT NULL
      );
      CREATE INDEX idx_lexical_documents_user ON lexical_documents (user_id);
    `,
  },
  {
    version: 3,
    description: 'memory layers (seed 001)',
    // Memories written before layers existed are the user's own: user layer, scoped by the user id.
    sql: `
      ALTER TABLE long_term_memories ADD COLUMN layer TEXT NOT NULL DEFAULT 'user';
      ALTER TABLE long_term_memories ADD COLUMN scope_id TEXT;
      UPDATE long_term_memories SET scope_id = user_id WHERE scope_id IS NULL;
    `,
  },
  {
    version: 4,
    description: 'memory versions and erased ids (atomic changes)',
    // Every change raises a memory's version, so a change based on an older read is refused instead
    // of overwriting. An erased id is remembered (id only, no content) so no late writer re-creates it.
    sql: `
      ALTER TABLE long_term_memories ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
      CREATE TABLE erased_memories (
        memory_id TEXT PRIMARY KEY,
        user_id   TEXT NOT NULL
      );
    `,
  },
  {
    version: 5,
    description: 'indexes no query reads dropped',
    // Every index is one more B-tree page a commit writes to the WAL. Listing and sorting by
    // importance or last access happen in memory (memoryListing.ts), so no query reads those two
    // indexes, yet every store wrote both and every access bump the second. A user's lexical
    // documents and working items are deleted and counted through their memories and sessions
    // (userDeletion.ts, storeStats.ts), which each of them belongs to. A user's few sessions are
    // sorted when listed, so their index no longer holds last_activity, which every
    // add_to_working_memory changes.
    // IF EXISTS: a file whose indexes were dropped by hand (or by a tool) still opens.
    sql: `
      DROP INDEX IF EXISTS idx_ltm_user_importance;
      DROP INDEX IF EXISTS idx_ltm_user_accessed;
      DROP INDEX IF EXISTS idx_lexical_documents_user;
      DROP INDEX IF EXISTS idx_wmi_user;
      DROP INDEX IF EXISTS idx_sessions_user;
      CREATE INDEX IF NOT EXISTS idx_sessions_user_id ON session_contexts (user_id);
    `,
  },
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/**
 * Brings the file to the latest schema. Runs under the write lock so two processes opening a
 * fresh directory at once apply each migration exactly once; reopening a current file is a no-op.
 */
export function runMigrations(db: Database): { from: number; to: number } {
  return inWriteTransaction(db, () => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_version (
      version     INTEGER PRIMARY KEY,
      description TEXT NOT NULL,
      applied_at  TEXT NOT NULL
    )`);
    const row = db.prepare('SELECT COALESCE(MAX(version), 0) AS version FROM schema_version').get() as {
      version: number;
    };
    const from = Number(row.version);
    if (from > LATEST_SCHEMA_VERSION) {
      throw new MemoryError(
        'CONFIGURATION_ERROR',
        `The memory database has schema version ${from}, newer than this build understands (${LATEST_SCHEMA_VERSION}). Update the extension or CLI.`,
        { operation: 'migrate', details: { schema_version: from, supported: LATEST_SCHEMA_VERSION } },
      );
    }
    const record = db.prepare('INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)');
    for (const migration of MIGRATIONS) {
      if (migration.version <= from) continue;
      db.exec(migration.sql);
      record.run(migration.version, migration.description, new Date().toISOString());
    }
    return { from, to: LATEST_SCHEMA_VERSION };
  });
}
