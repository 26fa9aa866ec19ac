import {
  anchorSummary,
  type AnchorSummary,
  type MemoryRecord,
  type RecalledMemory,
  type RetrievalBreakdown,
} from '../../src/shared/panelProtocol.ts';
import {
  type ListSort,
  type MemoryPage,
  PANEL_PAGE_SIZE,
  PANEL_SEARCH_LIMIT,
  type PanelFilter,
  type SearchResult,
  type SearchSort,
} from '../../src/shared/panelProtocol.ts';
import { provenanceText, repositoryOriginOf } from '../../src/shared/repositoryOrigin.ts';
import { describeError, type PanelClient } from '../panelClient.ts';

/** One row of the memories list, whether it came from browsing or from a search. */
export interface ListRow {
  memory_id: string;
  content: string;
  memory_category: string;
  memory_subtype: string;
  /** Seed 001 layer; the list badges the ones that are not the user's own. */
  layer: string;
  pinned: boolean;
  importance: number;
  access_count: number;
  created_at: string;
  entities: string[];
  tags: string[];
  deleted: boolean;
  /** The status of the code the memory is anchored to (worst of its anchors); absent without anchors. */
  code?: AnchorSummary;
  /** Present for search results: score, breakdown and why it matched. */
  recalled?: RecalledMemory;
  /** A project memory that lives in the repository's `.memory/`: its file, commit and author in words. */
  repository?: { path: string; provenance: string };
}

export interface ListQueryState {
  query: string;
  filter: PanelFilter;
  sort: SearchSort;
}

export type FirstRows = { kind: 'list'; page: MemoryPage } | { kind: 'search'; result: SearchResult };

/** The request for a query's first rows: a page of the listing, or the search results. */
export function requestFirstRows(client: PanelClient, state: ListQueryState, offset = 0): Promise<FirstRows> {
  if (state.query.trim()) {
    return client
      .request('memory/search', {
        query: state.query,
        filter: state.filter,
        sort: state.sort,
        limit: PANEL_SEARCH_LIMIT,
      })
      .then((result) => ({ kind: 'search', result }));
  }
  const sort: ListSort = state.sort === 'relevance' ? 'recency' : state.sort;
  return client
    .request('memory/list', { filter: state.filter, sort, offset, limit: PANEL_PAGE_SIZE })
    .then((page) => ({ kind: 'list', page }));
}

/**
 * The rows behind the virtual list. Browsing loads pages on demand as the list scrolls; a search
 * returns its ranked results at once. Answers to superseded queries are dropped by generation.
 */
export class MemoryListModel {
  total = 0;
  mode: 'list' | 'search' = 'list';
  loading = false;
  error: string | null = null;
  breakdown: RetrievalBreakdown | null = null;
  elapsedMs: number | null = null;
  private rows = new Map<number, ListRow>();
  private readonly pendingPages = new Set<number>();
  private generation = 0;
  private current: ListQueryState = { query: '', filter: {}, sort: 'recency' };
  private readonly client: PanelClient;
  private readonly pageSize = PANEL_PAGE_SIZE;
  private readonly onChange: () => void;

  constructor(client: PanelClient, onChange: () => void) {
    this.client = client;
    this.onChange = onChange;
  }

  row(index: number): ListRow | undefined {
    return this.rows.get(index);
  }

  loadedRows(): ListRow[] {
    return [...this.rows.values()];
  }

  /**
   * Starts over for a new query, filter or sort. `prefetched` is the same first request already
   * in flight (sent at start-up alongside the ready request, to save a round trip).
   */
  async reset(state: ListQueryState, prefetched?: Promise<FirstRows>): Promise<void> {
    this.current = state;
    this.generation++;
    this.rows = new Map();
    this.pendingPages.clear();
    this.total = 0;
    this.breakdown = null;
    this.elapsedMs = null;
    this.mode = state.query.trim() ? 'search' : 'list';
    await this.fetch(this.generation, 0, false, prefetched);
  }

  /** Re-reads what is shown, keeping the scroll position (after a change notification). */
  async reload(visibleStart: number): Promise<void> {
    this.generation++;
    this.pendingPages.clear();
    const firstPage = Math.floor(visibleStart / this.pageSize) * this.pageSize;
    // The old rows stay on screen until the fresh page replaces them, so a refresh does not flicker.
    await this.fetch(this.generation, this.mode === 'search' ? 0 : firstPage, true);
  }

  ensureRange(start: number, end: number): void {
    if (this.mode !== 'list') return;
    for (let page = Math.floor(start / this.pageSize) * this.pageSize; page < end; page += this.pageSize) {
      if (!this.rows.has(page) && !this.pendingPages.has(page) && page < this.total)
        void this.fetch(this.generation, page);
    }
  }

  private async fetch(
    generation: number,
    offset: number,
    replace = false,
    prefetched?: Promise<FirstRows>,
  ): Promise<void> {
    this.pendingPages.add(offset);
    this.loading = true;
    this.onChange();
    try {
      const answer = await (prefetched ?? requestFirstRows(this.client, this.current, offset));
      if (generation !== this.generation) return;
      if (answer.kind === 'search') {
        const { result } = answer;
        this.rows = new Map(result.items.map((memory, index) => [index, fromRecalled(memory)]));
        this.total = result.items.length;
        this.breakdown = result.breakdown;
        this.elapsedMs = result.elapsed_ms;
      } else {
        const { page } = answer;
        // Other pages are re-read when scrolled to; their old rows may be out of date.
        if (replace) this.rows = new Map();
        page.items.forEach((memory, index) => this.rows.set(offset + index, fromRecord(memory)));
        this.total = page.total;
      }
      this.error = null;
    } catch (error) {
      if (generation !== this.generation) return;
      this.error = describeError(error);
    } finally {
      if (generation === this.generation) {
        this.pendingPages.delete(offset);
        this.loading = this.pendingPages.size > 0;
        this.onChange();
      }
    }
  }
}

type RowSource = Pick<
  MemoryRecord,
  | 'memory_id'
  | 'content'
  | 'layer'
  | 'pinned'
  | 'importance'
  | 'access_count'
  | 'created_at'
  | 'entities'
  | 'tags'
  | 'metadata'
> & {
  memory_category: string;
  memory_subtype: string;
};

function rowOf(memory: RowSource, deleted: boolean, recalled?: RecalledMemory): ListRow {
  const code = anchorSummary(memory.metadata, recalled?.anchors);
  const origin = repositoryOriginOf(memory.metadata);
  return {
    memory_id: memory.memory_id,
    content: memory.content,
    memory_category: memory.memory_category,
    memory_subtype: memory.memory_subtype,
    layer: memory.layer,
    pinned: memory.pinned,
    importance: memory.importance,
    access_count: memory.access_count,
    created_at: memory.created_at,
    entities: memory.entities,
    tags: memory.tags,
    deleted,
    ...(code ? { code } : {}),
    ...(recalled ? { recalled } : {}),
    ...(origin ? { repository: { path: origin.path, provenance: provenanceText(origin) } } : {}),
  };
}

function fromRecord(memory: MemoryRecord): ListRow {
  return rowOf(memory, memory.deleted_at !== null);
}

function fromRecalled(memory: RecalledMemory): ListRow {
  return rowOf(memory, false, memory);
}
