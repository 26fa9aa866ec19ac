import type { PanelFilter, SearchSort } from '../src/shared/panelProtocol.ts';
import type { PanelHost } from './host/panelHost.ts';

export type Tab = 'memories' | 'working' | 'overview' | 'context';
export const TABS: readonly Tab[] = ['memories', 'working', 'overview', 'context'];

/** What the panel restores when it is hidden and shown again, or the page is reloaded. */
export interface UiState {
  tab: Tab;
  query: string;
  filter: PanelFilter;
  sort: SearchSort;
  openId: string | null;
  filtersOpen: boolean;
  previewQuery: string;
  previewBudget: number;
}

const DEFAULTS: UiState = {
  tab: 'memories',
  query: '',
  filter: {},
  sort: 'relevance',
  openId: null,
  filtersOpen: false,
  previewQuery: '',
  previewBudget: 4000,
};

export class UiStore {
  private current: UiState;
  private readonly host: PanelHost;

  constructor(host: PanelHost) {
    this.host = host;
    const saved = host.getState();
    // Saved state may come from an older panel version; unknown fields are dropped, missing ones defaulted.
    this.current = { ...DEFAULTS, ...(isRecord(saved) ? pick(saved) : {}) };
  }

  get state(): Readonly<UiState> {
    return this.current;
  }

  update(patch: Partial<UiState>): void {
    this.current = { ...this.current, ...patch };
    this.host.setState(this.current);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pick(saved: Record<string, unknown>): Partial<UiState> {
  const result: Partial<UiState> = {};
  if (typeof saved.tab === 'string' && (TABS as readonly string[]).includes(saved.tab)) result.tab = saved.tab as Tab;
  if (typeof saved.query === 'string') result.query = saved.query;
  if (isRecord(saved.filter)) result.filter = saved.filter as PanelFilter;
  if (typeof saved.sort === 'string') result.sort = saved.sort as SearchSort;
  if (typeof saved.openId === 'string') result.openId = saved.openId;
  if (typeof saved.filtersOpen === 'boolean') result.filtersOpen = saved.filtersOpen;
  if (typeof saved.previewQuery === 'string') result.previewQuery = saved.previewQuery;
  if (typeof saved.previewBudget === 'number') result.previewBudget = saved.previewBudget;
  return result;
}
