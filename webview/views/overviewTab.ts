import type { Overview } from '../../src/shared/panelProtocol.ts';
import { describeError } from '../panelClient.ts';
import type { PanelContext } from '../panelContext.ts';
import { recentRecallsSection } from './recentRecalls.ts';
import { identitySection } from './identityLine.ts';
import { barChart, namedBars } from '../ui/charts.ts';
import { formatDate, h, iconButton, replaceChildren } from '../ui/dom.ts';

/** Counts, growth, recall activity, store and provider health, recent errors. */
export class OverviewTab {
  readonly element = h('div', { class: 'overview-tab' });
  private readonly context: PanelContext;

  constructor(context: PanelContext) {
    this.context = context;
  }

  async start(): Promise<void> {
    replaceChildren(this.element, h('p', { class: 'loading' }, 'Loading overview…'));
    await this.refresh();
  }

  async refresh(): Promise<void> {
    try {
      this.render(await this.context.client.request('overview/get', {}));
    } catch (error) {
      replaceChildren(
        this.element,
        h(
          'div',
          { class: 'error-box', role: 'alert' },
          describeError(error),
          ' ',
          h('button', { type: 'button', onclick: () => void this.refresh() }, 'Retry'),
        ),
      );
    }
  }

  private render(data: Overview): void {
    const card = (label: string, value: string): HTMLElement =>
      h(
        'div',
        { class: 'stat-card' },
        h('div', { class: 'stat-value' }, value),
        h('div', { class: 'stat-label' }, label),
      );
    const day = (iso: string): string =>
      new Date(iso).toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
    // Hours of the last 24 span two dates, so each label says which day it is.
    const hour = (iso: string): string =>
      new Date(iso).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
    const health = data.backend.status;
    replaceChildren(
      this.element,
      h(
        'div',
        { class: 'toolbar' },
        h('h2', null, 'Overview'),
        h('span', { class: 'spacer' }),
        iconButton('refresh', 'Refresh overview', () => void this.refresh()),
      ),
      identitySection(this.context.init),
      h(
        'div',
        { class: 'stat-grid' },
        card('memories', data.memories.toLocaleString()),
        card('pinned', data.pinned.toLocaleString()),
        card('in trash', data.deleted.toLocaleString()),
        card('embedded', data.embedded.toLocaleString()),
        card('sessions', data.sessions.toLocaleString()),
        card('store size', data.storage_bytes === null ? 'n/a' : formatBytes(data.storage_bytes)),
      ),
      h('h3', null, 'By category'),
      namedBars(data.by_category, 'Memories by category'),
      h('h3', null, 'By subtype'),
      namedBars(data.by_subtype, 'Memories by subtype'),
      h('h3', null, 'Growth (memories, last 12 weeks)'),
      barChart(data.growth, 'Memories at the end of each week', day),
      h('h3', null, 'Recall activity (last 24 hours, this process)'),
      barChart(data.recall_activity, 'Recalls per hour', hour),
      h('h3', null, 'Recent recalls (what agents, the chat and searches received)'),
      recentRecallsSection(data.recent_recalls),
      h('h3', null, 'Backend'),
      h(
        'dl',
        { class: 'meta' },
        h('dt', null, 'Store'),
        h('dd', null, data.backend.kind),
        h('dt', null, 'Health'),
        h(
          'dd',
          null,
          h('span', { class: `health health-${health}` }, health),
          ` · answered in ${formatLatency(data.backend.latency_ms)} · ${data.backend.detail}`,
        ),
        h('dt', null, 'Embeddings'),
        h(
          'dd',
          null,
          data.embeddings.model ? `${data.embeddings.provider} · ${data.embeddings.model}` : 'none (full-text ranking)',
        ),
        data.embeddings.startup_check
          ? [
              h('dt', null, 'Startup check'),
              h('dd', { 'data-field': 'embedding-check' }, data.embeddings.startup_check.message),
            ]
          : null,
        h('dt', null, 'Embedding failures'),
        h('dd', null, String(data.embeddings.failures)),
        h('dt', null, 'Search keys by a model'),
        h(
          'dd',
          { 'data-field': 'enrichment' },
          data.enrichment
            ? `${data.enrichment.enricher} · ${data.enrichment.succeeded} enriched, ${data.enrichment.keys_added} keys · ${data.enrichment.skipped} not sent (secret or excluded file) · ${data.enrichment.failed} failed`
            : 'off (no language model allowed)',
        ),
        h('dt', null, 'Access log'),
        h('dd', null, `${data.access_log_entries.toLocaleString()} entries`),
      ),
      h('h3', null, 'Recent errors'),
      data.recent_errors.length === 0
        ? h('p', { class: 'muted' }, 'None.')
        : h(
            'ul',
            { class: 'error-list' },
            data.recent_errors.map((entry) =>
              h(
                'li',
                null,
                h('code', null, entry.code),
                ` ${entry.message} `,
                h('span', { class: 'muted' }, formatDate(entry.at)),
              ),
            ),
          ),
    );
  }
}

/** A health-check latency as a person reads it: "< 0.1 ms", "0.8 ms", "12 ms", not "0.007600999990245327 ms". */
export function formatLatency(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return 'n/a';
  if (ms < 0.1) return '< 0.1 ms';
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms).toLocaleString()} ms`;
}

function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}
