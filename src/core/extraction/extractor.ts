import type { FactCategory } from '../facts/factModel.ts';
import type { MemoryCategory, MemorySubtype } from '../domain/taxonomy.ts';

/**
 * What an extractor turns a message or a checkpointed working-memory item into (seed 000 §8.3,
 * seed 003 ExtractMemories): zero or more self-contained memories, each already classified.
 */
export interface ExtractedMemory {
  content: string;
  category: MemoryCategory;
  subtype: MemorySubtype;
  importance: number;
  entities: string[];
  is_temporal: boolean;
  /** A structured fact (seed 002) this memory states, stored through set_fact semantics. */
  fact?: { category: FactCategory; key: string; value: string };
  /**
   * Correction intent ("actually, it's X not Y"): `replaces` is the wrong value Y. The queue
   * supersedes the live memory that still states Y instead of storing a second, conflicting one.
   */
  correction?: { replaces: string };
}

export interface ExtractionContext {
  user_id?: string;
  project_id?: string | null;
  session_id?: string;
  /** Working-memory content type or other hint about where the text came from. */
  source?: string;
  /** A short description of the session or user, given to model-based extractors. */
  summary?: string;
}

export interface ExtractionInput {
  content: string;
  context?: ExtractionContext;
}

export interface MemoryExtractor {
  /** Stable name recorded in each extracted memory's metadata (`rules`, `openai:gpt-4o-mini`, `vscode-lm:copilot/gpt-4o`). */
  readonly name: string;
  /** Throws MemoryError (PROVIDER_ERROR, RATE_LIMITED, UNAUTHORIZED, CONFIGURATION_ERROR) when it cannot extract. */
  extract(input: ExtractionInput): Promise<ExtractedMemory[]>;
}
