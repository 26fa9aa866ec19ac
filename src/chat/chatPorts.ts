import type { RecallInput, RecallOutput, StoreMemoryInput, StoreMemoryOutput } from '../core/api/longTermApi.ts';
import type { RememberIdentity } from '../core/editor/rememberText.ts';
import type { MemoryLayer } from '../core/domain/layers.ts';

/**
 * What the @memory chat participant needs from the editor, as plain interfaces: the handler
 * (memoryChat.ts) never imports `vscode`, so it is tested with fakes; chatParticipant.ts adapts.
 */

/** A memory the response cites: enough to build the `fml-memory:` URI that opens it. */
export interface MemoryCitation {
  memory_id: string;
  layer: MemoryLayer;
  scope_id: string;
  content: string;
}

/** Commands the response's buttons run; each takes the memory id. */
export type ChatButtonCommand = 'memory.changeCategory' | 'memory.forget';

export interface ChatButton {
  title: string;
  command: ChatButtonCommand;
  memoryId: string;
}

/** The response stream, reduced to what the participant writes. */
export interface ChatOutput {
  markdown(text: string): void;
  progress(text: string): void;
  /** Lists the memory under the response's "Used references": the user opens it from there. */
  reference(memory: MemoryCitation): void;
  /** An inline link to the memory, opening it read-only. */
  anchor(memory: MemoryCitation, title: string): void;
  button(button: ChatButton): void;
}

/** A language model the user allowed; streams its answer. */
export interface ChatAnswerModel {
  readonly name: string;
  answer(prompt: string): AsyncIterable<string>;
}

export interface ChatCore {
  recall(input: RecallInput, options?: { logAccess?: boolean; tool?: string }): Promise<RecallOutput>;
  storeMemory(input: StoreMemoryInput): Promise<StoreMemoryOutput>;
}

export interface ChatDeps {
  core: ChatCore;
  identity: RememberIdentity;
  /** Null when no model may be used: the setting is off (its id is `modelSetting`). */
  model: ChatAnswerModel | null;
  /** The consent setting's full id, named when the answer is a plain list. */
  modelSetting: string;
  isCancelled(): boolean;
}

/** What a turn did; returned as the chat result's metadata (JSON) and asserted by tests. */
export interface ChatOutcome {
  command: 'remember' | 'recall' | 'forget' | 'ask' | 'help';
  /** Memories shown to the user (cited), in order. */
  memory_ids: string[];
  stored?: StoreMemoryOutput;
  answered_by?: 'model' | 'list';
  error?: { code: string; message: string };
}
