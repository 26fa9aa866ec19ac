import { sqlIdentifier } from './sqlLiteral.ts';

/**
 * Seed 000 §6 adapted to Firebolt: no PRIMARY KEY (ids are client-generated), a sparse
 * PRIMARY INDEX leading with user_id because every query is per user, explicit NULL/NOT NULL
 * (the default changed between Firebolt versions), TEXT for JSON, NOT NULL arrays (Core has
 * had trouble with nullable arrays), DOUBLE PRECISION for scores so JS numbers round-trip.
 * Embeddings live in one table per dimension (fml_vectors_d<n>) because an HNSW index has a
 * fixed dimension and must exist before the table has rows.
 */
export interface Migration {
  version: number;
  description: string;
  statements: readonly string[];
}

export const SCHEMA_VERSION_TABLE = `CREATE TABLE IF NOT EXISTS fml_schema_version (
  version     INT         NOT NULL,
  description TEXT        NOT NULL,
  applied_at  TIMESTAMPTZ NOT NULL
) PRIMARY INDEX version`;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'memories, lexical terms, sessions, working items, access log, vector registry, change log',
    statements: [
      `CREATE TABLE IF NOT EXISTS fml_memories (
        user_id          TEXT                 NOT NULL,
        memory_id        TEXT                 NOT NULL,
        org_id           TEXT                 NULL,
        project_id       TEXT                 NULL,
        memory_category  TEXT                 NOT NULL,
        memory_subtype   TEXT                 NOT NULL,
        content          TEXT                 NOT NULL,
        summary          TEXT                 NULL,
        entities         ARRAY(TEXT NOT NULL) NOT NULL,
        tags             ARRAY(TEXT NOT NULL) NOT NULL,
        metadata         TEXT                 NOT NULL,
        event_time       TIMESTAMPTZ          NULL,
        is_temporal      BOOLEAN              NOT NULL,
        importance       DOUBLE PRECISION     NOT NULL,
        access_count     BIGINT               NOT NULL,
        decay_factor     DOUBLE PRECISION     NOT NULL,
        related_memories ARRAY(TEXT NOT NULL) NOT NULL,
        supersedes       TEXT                 NULL,
        superseded_by    TEXT                 NULL,
        source_session   TEXT                 NULL,
        source_type      TEXT                 NOT NULL,
        confidence       DOUBLE PRECISION     NOT NULL,
        pinned           BOOLEAN              NOT NULL,
        embedding_model  TEXT                 NULL,
        created_at       TIMESTAMPTZ          NOT NULL,
        last_accessed    TIMESTAMPTZ          NOT NULL,
        updated_at       TIMESTAMPTZ          NOT NULL,
        deleted_at       TIMESTAMPTZ          NULL,
        doc_length       DOUBLE PRECISION     NOT NULL,
        analyzer_version INT                  NOT NULL,
        stored_seq       BIGINT               NOT NULL
      ) PRIMARY INDEX user_id, memory_id`,
      `CREATE TABLE IF NOT EXISTS fml_memory_terms (
        user_id   TEXT             NOT NULL,
        term      TEXT             NOT NULL,
        memory_id TEXT             NOT NULL,
        tf        DOUBLE PRECISION NOT NULL
      ) PRIMARY INDEX user_id, term`,
      `CREATE TABLE IF NOT EXISTS fml_sessions (
        user_id         TEXT        NOT NULL,
        session_id      TEXT        NOT NULL,
        org_id          TEXT        NULL,
        project_id      TEXT        NULL,
        total_tokens    BIGINT      NOT NULL,
        max_tokens      BIGINT      NOT NULL,
        eviction_policy TEXT        NOT NULL,
        next_sequence   BIGINT      NOT NULL,
        created_at      TIMESTAMPTZ NOT NULL,
        last_activity   TIMESTAMPTZ NOT NULL,
        expires_at      TIMESTAMPTZ NULL,
        config          TEXT        NOT NULL
      ) PRIMARY INDEX user_id, session_id`,
      `CREATE TABLE IF NOT EXISTS fml_working_items (
        user_id         TEXT             NOT NULL,
        session_id      TEXT             NOT NULL,
        item_id         TEXT             NOT NULL,
        content_type    TEXT             NOT NULL,
        content         TEXT             NOT NULL,
        token_count     BIGINT           NOT NULL,
        relevance_score DOUBLE PRECISION NOT NULL,
        pinned          BOOLEAN          NOT NULL,
        sequence_num    BIGINT           NOT NULL,
        created_at      TIMESTAMPTZ      NOT NULL,
        last_accessed   TIMESTAMPTZ      NOT NULL,
        metadata        TEXT             NOT NULL
      ) PRIMARY INDEX user_id, session_id, sequence_num`,
      `CREATE TABLE IF NOT EXISTS fml_access_log (
        user_id          TEXT             NOT NULL,
        memory_id        TEXT             NOT NULL,
        access_id        TEXT             NOT NULL,
        session_id       TEXT             NULL,
        query_text       TEXT             NULL,
        similarity_score DOUBLE PRECISION NULL,
        tool             TEXT             NOT NULL,
        accessed_at      TIMESTAMPTZ      NOT NULL
      ) PRIMARY INDEX user_id, memory_id`,
      `CREATE TABLE IF NOT EXISTS fml_vector_tables (
        dimension   INT  NOT NULL,
        table_name  TEXT NOT NULL,
        index_name  TEXT NULL,
        index_error TEXT NULL
      ) PRIMARY INDEX dimension`,
      `CREATE TABLE IF NOT EXISTS fml_changes (
        change_id  TEXT        NOT NULL,
        changed_at TIMESTAMPTZ NOT NULL
      ) PRIMARY INDEX change_id`,
    ],
  },
  {
    version: 2,
    description: 'memory layers (seed 001)',
    // Memories written before layers existed are the user's own: user layer, scoped by the user id.
    statements: [
      `ALTER TABLE fml_memories ADD COLUMN IF NOT EXISTS layer TEXT NOT NULL DEFAULT 'user'`,
      `ALTER TABLE fml_memories ADD COLUMN IF NOT EXISTS scope_id TEXT NULL`,
      `UPDATE fml_memories SET scope_id = user_id WHERE scope_id IS NULL`,
    ],
  },
  {
    version: 3,
    description: 'memory versions and erased ids (atomic changes)',
    // Every change raises a memory's version; a change based on an older read is refused. Erased
    // ids are remembered (id only) so a late insert cannot bring an erased memory back.
    statements: [
      `ALTER TABLE fml_memories ADD COLUMN IF NOT EXISTS version BIGINT NOT NULL DEFAULT 1`,
      `CREATE TABLE IF NOT EXISTS fml_erased_memories (
        user_id   TEXT NOT NULL,
        memory_id TEXT NOT NULL
      ) PRIMARY INDEX user_id, memory_id`,
    ],
  },
  {
    version: 4,
    description: 'turn facts of each memory (conversation key, question flag) for neighbour expansion',
    // NULL asks_question: a row stored before this version; the store fills it at open (turnFactColumns.ts).
    statements: [
      `ALTER TABLE fml_memories ADD COLUMN IF NOT EXISTS conversation_key TEXT NULL`,
      `ALTER TABLE fml_memories ADD COLUMN IF NOT EXISTS asks_question BOOLEAN NULL`,
    ],
  },
];

export function vectorTableName(dimension: number): string {
  return `fml_vectors_d${dimension}`;
}

export function vectorIndexName(dimension: number): string {
  return `fml_vectors_d${dimension}_hnsw`;
}

export function vectorTableDdl(dimension: number): string {
  return `CREATE TABLE IF NOT EXISTS ${sqlIdentifier(vectorTableName(dimension))} (
    user_id   TEXT                 NOT NULL,
    memory_id TEXT                 NOT NULL,
    model     TEXT                 NOT NULL,
    embedding ARRAY(REAL NOT NULL) NOT NULL
  ) PRIMARY INDEX user_id, memory_id`;
}

/** Created right after the table, while it is empty, as Firebolt requires. */
export function vectorIndexDdl(dimension: number): string {
  return `CREATE INDEX ${sqlIdentifier(vectorIndexName(dimension))} ON ${sqlIdentifier(vectorTableName(dimension))}
    USING HNSW (embedding vector_cosine_ops) WITH (dimension = ${Math.trunc(dimension)}, m = 16, ef_construction = 128, quantization = 'bf16')`;
}
