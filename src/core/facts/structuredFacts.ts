import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import type { MemoryRecord } from '../domain/records.ts';
import { type LayerName, layerPrecedence, type MemoryLayer, requireLayer } from '../domain/layers.ts';
import { identifiersFrom, type LayerScope, scopeFor, scopeRef } from '../layers/layerScope.ts';
import { callScopes } from '../layers/readScopes.ts';
import { listAllMemories } from '../lifecycle/listAll.ts';
import { effectiveFacts } from './factPrecedence.ts';
import type { LongTermMemory } from '../longterm/longTermMemory.ts';
import { guardNamedText, type Redaction } from '../safety/contentGuard.ts';
import { KeyedMutex } from '../util/keyedMutex.ts';
import { requireOwnSession } from '../working/sessionOwnership.ts';
import { requireId, requireUnitInterval } from '../validation.ts';
import {
  FACT_CLASSIFICATION,
  FACT_TAG,
  type Fact,
  type FactCategory,
  factContent,
  factOfMemory,
  factTag,
  requireFactCategory,
  requireFactKey,
  requireFactValue,
} from './factModel.ts';

/** The layer a fact is set in or read from (seed 001), with its identifiers; default the user layer. */
export interface FactLayerInput {
  layer?: LayerName;
  agent_id?: string;
  session_id?: string;
  project_id?: string;
  team_id?: string;
  org_id?: string;
  company_id?: string;
}

export interface SetFactInput extends FactLayerInput {
  user_id: string;
  category: string;
  key: string;
  value: string;
  /** 0..1 (default 1); a value replaces the active one only at equal or higher confidence (seed 002). */
  confidence?: number;
  importance?: number;
}

export interface SetFactOutput {
  /** 'created' (first value), 'updated' (new value superseded the old), 'unchanged' (same value), 'ignored' (lower confidence). */
  action: 'created' | 'updated' | 'unchanged' | 'ignored';
  fact: Fact;
  /** The value that was replaced, when action is 'updated'. */
  previous?: Fact;
  reason: string;
  redactions: Redaction[];
}

export interface GetFactsInput extends Omit<FactLayerInput, 'layer'> {
  user_id: string;
  category?: string;
  key?: string;
  include_history?: boolean;
  /** Layers to read; default every layer the identifiers open. */
  layers?: LayerName[];
}

export interface FactWithHistory extends Fact {
  /** Older values of the key, newest first; present when history was asked for. */
  history?: Fact[];
  /** Id of the more specific layer's value of the same key that overrides this one. */
  overridden_by?: string;
}

/** set_fact / get_facts / delete_fact over long-term memory (seed 002 structured facts). */
export class StructuredFacts {
  private readonly deps: CoreDeps;
  private readonly longTerm: LongTermMemory;
  /** One writer per user and key, so two concurrent sets never leave two active values. */
  private readonly locks = new KeyedMutex();

  constructor(deps: CoreDeps, longTerm: LongTermMemory) {
    this.deps = deps;
    this.longTerm = longTerm;
  }

  async set(input: SetFactInput): Promise<SetFactOutput> {
    const userId = requireId(input.user_id, 'user_id');
    const scope = factScope(input, userId);
    const category = requireFactCategory(input.category);
    const key = requireFactKey(input.key);
    // The value is guarded here too: it is kept verbatim in metadata.fact, not only in the content.
    const guarded = guardNamedText(key, requireFactValue(input.value), this.deps.config, 'value');
    const value = guarded.content;
    const confidence = requireUnitInterval(input.confidence, 'confidence', 1);
    const importance = requireUnitInterval(input.importance, 'importance', 0.8);
    await requireOwnSession(this.deps.store, userId, input.session_id);
    return this.locks.run(lockKey(scope, category, key), async () => {
      const active = await this.active(scope, category, key);
      if (active && active.value === value) {
        return {
          action: 'unchanged',
          fact: active,
          reason: 'The active value is already this one.',
          redactions: guarded.redactions,
        };
      }
      if (active && confidence < active.confidence) {
        return {
          action: 'ignored',
          fact: active,
          reason: `The active value has confidence ${active.confidence}; a new value needs at least that (got ${confidence}).`,
          redactions: guarded.redactions,
        };
      }
      const classification = FACT_CLASSIFICATION[category];
      const stored = await this.longTerm.store({
        user_id: userId,
        content: factContent({ category, key, value }),
        memory_category: classification.category,
        memory_subtype: classification.subtype,
        importance,
        confidence,
        entities: [],
        metadata: { fact: { category, key, value }, tags: [FACT_TAG, factTag(category, key)] },
        source_type: 'explicit',
        ...layerIdentifiers(input),
        // Facts are layer-wide: a project's value lives in the project layer, not on a user's memory.
        project_id: scope.layer === 'project' ? scope.scope_id : null,
        layer: scope.layer,
        ...(active ? { supersedes: active.memory_id } : {}),
      });
      const fact = await this.factById(scope.partition, stored.memory_id);
      if (!fact || fact.key !== key || fact.category !== category) {
        // Dedup merged the fact into an older memory with the same text; that memory now carries it.
        throw new MemoryError('PROVIDER_ERROR', `Storing fact ${category}/${key} did not produce a fact memory.`, {
          details: { memory_id: stored.memory_id },
        });
      }
      const previous = active ? await this.factById(scope.partition, active.memory_id) : null;
      return {
        action: active ? 'updated' : 'created',
        fact,
        ...(previous ? { previous } : {}),
        reason: active
          ? `Replaced "${active.value}" (confidence ${active.confidence}); the old value is kept as history.`
          : 'First value for this key.',
        redactions: guarded.redactions,
      };
    });
  }

  async get(input: GetFactsInput): Promise<{ facts: FactWithHistory[]; searched_layers: MemoryLayer[] }> {
    const userId = requireId(input.user_id, 'user_id');
    const category = input.category === undefined ? undefined : requireFactCategory(input.category);
    const key = input.key === undefined ? undefined : requireFactKey(input.key);
    if (key !== undefined && category === undefined) {
      throw new MemoryError('INVALID_INPUT', 'A fact key is looked up within a category: pass category with key.', {
        details: { field: 'category' },
      });
    }
    const tag = category && key ? factTag(category, key) : FACT_TAG;
    const scopes = callScopes(input, userId, input.project_id, this.deps.config.layerDefaults);
    const all: Fact[] = [];
    for (const scope of scopes) all.push(...(await this.factsTagged(scope, tag, input.include_history === true)));
    const wanted = all.filter((fact) => category === undefined || fact.category === category);
    const overriddenBy = new Map<string, string>();
    for (const { fact, overridden } of effectiveFacts(wanted))
      for (const loser of overridden) overriddenBy.set(loser.memory_id, fact.memory_id);
    const active = wanted
      .filter((fact) => fact.active)
      .sort(
        (a, b) =>
          b.importance - a.importance ||
          a.key.localeCompare(b.key) ||
          layerPrecedence(a.layer) - layerPrecedence(b.layer),
      )
      .map((fact): FactWithHistory =>
        overriddenBy.has(fact.memory_id) ? { ...fact, overridden_by: overriddenBy.get(fact.memory_id) } : fact,
      );
    const searched_layers = scopes.map((scope) => scope.layer);
    if (!input.include_history) return { facts: active, searched_layers };
    return {
      facts: active.map((fact) => ({
        ...fact,
        history: wanted
          .filter(
            (old) =>
              !old.active &&
              old.category === fact.category &&
              old.key === fact.key &&
              old.layer === fact.layer &&
              old.scope_id === fact.scope_id,
          )
          .sort((a, b) => b.created_at.localeCompare(a.created_at)),
      })),
      searched_layers,
    };
  }

  async delete(
    input: FactLayerInput & { user_id: string; category: string; key: string },
  ): Promise<{ deleted: boolean; memory_id: string }> {
    const userId = requireId(input.user_id, 'user_id');
    const scope = factScope(input, userId);
    const category = requireFactCategory(input.category);
    const key = requireFactKey(input.key);
    return this.locks.run(lockKey(scope, category, key), async () => {
      const active = await this.active(scope, category, key);
      if (!active) {
        throw new MemoryError(
          'MEMORY_NOT_FOUND',
          `No active fact ${category}/${key} exists in the ${scope.layer} layer for user ${userId}.`,
          { details: { category, key, layer: scope.layer } },
        );
      }
      // Soft delete: the value and its history stay restorable and exportable.
      // The project layer is named by project_id, which layerIdentifiers leaves out (it is not an
      // identifier of a user-layer fact's memory); forgetting a project fact needs it back.
      const projectId = scope.layer === 'project' ? { project_id: scope.scope_id } : {};
      await this.longTerm.forget({
        user_id: userId,
        memory_id: active.memory_id,
        ...layerIdentifiers(input),
        ...projectId,
        layer: scope.layer,
      });
      return { deleted: true, memory_id: active.memory_id };
    });
  }

  private async active(scope: LayerScope, category: FactCategory, key: string): Promise<Fact | null> {
    const facts = await this.factsTagged(scope, factTag(category, key), false);
    // More than one can only appear through an import or a manual edit; the newest wins.
    return facts.filter((fact) => fact.active).sort((a, b) => b.created_at.localeCompare(a.created_at))[0] ?? null;
  }

  private async factsTagged(scope: LayerScope, tag: string, withHistory: boolean): Promise<Fact[]> {
    const { items } = await listAllMemories(this.deps.store, {
      user_id: scope.partition,
      scopes: [scopeRef(scope)],
      tags: [tag],
      state: withHistory ? 'all' : 'live',
      include_superseded: withHistory,
    });
    return items.map(factOfMemory).filter((fact): fact is Fact => fact !== null);
  }

  private async factById(userId: string, memoryId: string): Promise<Fact | null> {
    const [memory]: MemoryRecord[] = await this.deps.store.getMemories(userId, [memoryId]);
    return memory ? factOfMemory(memory) : null;
  }
}

function factScope(input: FactLayerInput, userId: string): LayerScope {
  return scopeFor(
    input.layer === undefined ? 'user' : requireLayer(input.layer),
    identifiersFrom({ ...input, user_id: userId }),
  );
}

function lockKey(scope: LayerScope, category: string, key: string): string {
  return `${scope.partition}\u0000${scope.layer}\u0000${scope.scope_id}\u0000${category}/${key}`;
}

function layerIdentifiers(input: FactLayerInput): Omit<FactLayerInput, 'layer' | 'project_id'> {
  const { agent_id, session_id, team_id, org_id, company_id } = input;
  return Object.fromEntries(
    Object.entries({ agent_id, session_id, team_id, org_id, company_id }).filter(([, value]) => value !== undefined),
  );
}
