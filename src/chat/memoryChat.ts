import type { RecalledMemory } from '../core/api/longTermApi.ts';
import { MemoryError } from '../core/domain/errors.ts';
import { rememberText } from '../core/editor/rememberText.ts';
import { isSharedLayer } from '../core/api/layerPartitions.ts';
import { summaryLine as summary } from '../core/memoryEvents.ts';
import { answerPrompt } from './chatAnswerPrompt.ts';
import type { ChatDeps, ChatOutcome, ChatOutput, MemoryCitation } from './chatPorts.ts';

/** The tool name recalls of the participant carry (access log, the panel's recent recalls). */
export const CHAT_TOOL = 'chat_participant';
export const CHAT_COMMANDS = ['remember', 'recall', 'forget'] as const;

const RECALL_LIMIT = 8;
const ASK_LIMIT = 6;
const FORGET_LIMIT = 5;

export interface ChatRequestLike {
  command: string | undefined;
  prompt: string;
}

/**
 * One turn of `@memory`: /remember stores, /recall lists with citations, /forget offers matches
 * to forget, and a plain question is answered from memories (by a model the user allowed, else
 * as a list). Every memory shown is also cited as a reference, so no context is silent.
 */
export async function handleMemoryChat(
  request: ChatRequestLike,
  deps: ChatDeps,
  out: ChatOutput,
): Promise<ChatOutcome> {
  const prompt = request.prompt.trim();
  let command: ChatOutcome['command'] = 'help';
  try {
    command = toCommand(request.command);
    switch (command) {
      case 'remember':
        return await remember(prompt, deps, out);
      case 'recall':
        return await recall(prompt, deps, out);
      case 'forget':
        return await offerToForget(prompt, deps, out);
      case 'ask':
        return prompt === '' ? help(out) : await ask(prompt, deps, out);
      case 'help':
        return help(out);
    }
  } catch (error) {
    if (!MemoryError.is(error)) throw error;
    out.markdown(`**${error.message}**`);
    return { command, memory_ids: [], error: { code: error.code, message: error.message } };
  }
}

function toCommand(name: string | undefined): ChatOutcome['command'] {
  if (name === undefined || name === '') return 'ask';
  if ((CHAT_COMMANDS as readonly string[]).includes(name)) return name as ChatOutcome['command'];
  throw new MemoryError(
    'INVALID_INPUT',
    `@memory has no /${name} command; use ${CHAT_COMMANDS.map((command) => `/${command}`).join(', ')}, or ask a question.`,
    { details: { field: 'command' } },
  );
}

function requirePrompt(prompt: string, example: string): void {
  if (prompt === '')
    throw new MemoryError('INVALID_INPUT', `Say what after the command, e.g. \`${example}\`.`, {
      details: { field: 'prompt' },
    });
}

async function remember(prompt: string, deps: ChatDeps, out: ChatOutput): Promise<ChatOutcome> {
  requirePrompt(prompt, '@memory /remember The billing service uses PostgreSQL 16');
  const { result, classification } = await rememberText(deps.core, deps.identity, prompt, { source: 'chat' });
  // Explicit memories go to the user's own layer; a duplicate names the memory it matched, also the user's.
  const action = result.similar_existing?.action;
  // A skipped duplicate is the memory already stored, with its own words.
  const content = action === 'skipped_duplicate' ? (result.similar_existing?.content ?? prompt) : prompt;
  const memory: MemoryCitation = {
    memory_id: result.memory_id,
    layer: 'user',
    scope_id: deps.identity.userId,
    content,
  };
  const label = `${classification.memory_category} / ${classification.memory_subtype}`;
  if (action === 'skipped_duplicate') out.markdown(`Already remembered (**${label}**): `);
  else if (action === 'updated_existing') out.markdown(`Updated an existing memory (**${label}**): `);
  else out.markdown(`Remembered as **${label}**: `);
  out.anchor(memory, summary(memory.content));
  if (result.redactions.length > 0)
    out.markdown(
      `\n\nSensitive parts were replaced before storing (${result.redactions.map((redaction) => redaction.kind).join(', ')}).`,
    );
  out.markdown('\n\nNot the right category? Change it, or forget the memory:');
  out.reference(memory);
  out.button({ title: 'Change Category…', command: 'memory.changeCategory', memoryId: memory.memory_id });
  out.button({ title: 'Forget', command: 'memory.forget', memoryId: memory.memory_id });
  return { command: 'remember', memory_ids: [memory.memory_id], stored: result };
}

async function recall(prompt: string, deps: ChatDeps, out: ChatOutput): Promise<ChatOutcome> {
  requirePrompt(prompt, '@memory /recall database migrations');
  const memories = await search(deps, prompt, RECALL_LIMIT, true);
  if (memories.length === 0) return nothingOn(prompt, 'recall', out);
  out.markdown(`${count(memories.length)} on “${prompt}”:\n`);
  list(memories, out);
  return { command: 'recall', memory_ids: memories.map((memory) => memory.memory_id), answered_by: 'list' };
}

async function offerToForget(prompt: string, deps: ChatDeps, out: ChatOutput): Promise<ChatOutcome> {
  requirePrompt(prompt, '@memory /forget the staging database password rotation');
  // Finding candidates is not using them: no access is logged.
  const memories = await search(deps, prompt, FORGET_LIMIT, false);
  if (memories.length === 0) {
    out.markdown(`Memory has nothing matching “${prompt}”, so nothing was forgotten.`);
    return { command: 'forget', memory_ids: [] };
  }
  out.markdown(
    `${count(memories.length)} match “${prompt}”. Nothing is forgotten until you press **Forget** on one; each can be undone right after.\n`,
  );
  list(memories, out);
  // Memories shared with a project, team, org or company belong to everyone there: the chat forgets only your own.
  memories.forEach((memory, index) => {
    if (!isSharedLayer(memory.layer))
      out.button({ title: `Forget ${index + 1}`, command: 'memory.forget', memoryId: memory.memory_id });
  });
  const shared = [...new Set(memories.filter((memory) => isSharedLayer(memory.layer)).map((memory) => memory.layer))];
  if (shared.length > 0)
    out.markdown(
      `\n_Memories shared in the ${shared.join(', ')} layer have no Forget button: the chat forgets only your own memories._`,
    );
  return { command: 'forget', memory_ids: memories.map((memory) => memory.memory_id) };
}

async function ask(question: string, deps: ChatDeps, out: ChatOutput): Promise<ChatOutcome> {
  const memories = await search(deps, question, ASK_LIMIT, true);
  if (memories.length === 0) return nothingOn(question, 'ask', out);
  const ids = memories.map((memory) => memory.memory_id);
  if (deps.model) {
    out.progress(`Answering from ${count(memories.length).toLowerCase()} with ${deps.model.name}…`);
    try {
      for await (const chunk of deps.model.answer(answerPrompt(question, memories))) {
        if (deps.isCancelled()) break;
        out.markdown(chunk);
      }
      for (const memory of memories) out.reference(citation(memory));
      return { command: 'ask', memory_ids: ids, answered_by: 'model' };
    } catch (error) {
      // The user still gets what memory holds, and sees why the model did not answer.
      out.markdown(
        `\n\n_The language model could not answer (${error instanceof Error ? error.message : String(error)}); these are the memories on it:_\n`,
      );
      list(memories, out);
      return {
        command: 'ask',
        memory_ids: ids,
        answered_by: 'list',
        error: { code: 'PROVIDER_ERROR', message: error instanceof Error ? error.message : String(error) },
      };
    }
  }
  out.markdown(`${count(memories.length)} on this:\n`);
  list(memories, out);
  out.markdown(
    `\n_For an answer written from them, allow a language model with the setting \`${deps.modelSetting}\`._`,
  );
  return { command: 'ask', memory_ids: ids, answered_by: 'list' };
}

function help(out: ChatOutput): ChatOutcome {
  out.markdown(
    [
      'Ask me what your memory knows, e.g. `@memory which database does billing use?`, or:',
      '- `/remember <text>`: store a decision, fact, convention or preference',
      '- `/recall <topic>`: list the memories on a topic',
      '- `/forget <topic>`: find memories to forget (you confirm each one)',
    ].join('\n'),
  );
  return { command: 'help', memory_ids: [] };
}

function nothingOn(query: string, command: 'recall' | 'ask', out: ChatOutput): ChatOutcome {
  out.markdown(`Memory has nothing on “${query}”.`);
  return { command, memory_ids: [] };
}

async function search(deps: ChatDeps, query: string, limit: number, logAccess: boolean): Promise<RecalledMemory[]> {
  const { memories } = await deps.core.recall(
    // The project scope is the core's default (this workspace, or none with scope "all"), as for agents.
    { user_id: deps.identity.userId, query, limit, session_id: deps.identity.sessionId },
    { logAccess, tool: CHAT_TOOL },
  );
  return memories;
}

/** A numbered list: each memory as a link that opens it, its category, and a citation. */
function list(memories: readonly RecalledMemory[], out: ChatOutput): void {
  memories.forEach((memory, index) => {
    out.markdown(`\n${index + 1}. `);
    out.anchor(citation(memory), summary(memory.content));
    out.markdown(
      ` · ${memory.memory_category}/${memory.memory_subtype}${memory.layer === 'user' ? '' : ` · ${memory.layer}`}`,
    );
    out.reference(citation(memory));
  });
  out.markdown('\n');
}

function citation(memory: RecalledMemory): MemoryCitation {
  return { memory_id: memory.memory_id, layer: memory.layer, scope_id: memory.scope_id, content: memory.content };
}

function count(n: number): string {
  return n === 1 ? '1 memory' : `${n} memories`;
}
