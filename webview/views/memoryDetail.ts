import type { RecalledMemory } from '../../src/shared/panelProtocol.ts';
import type { MemoryDetail, MemorySummary, PromotionTarget } from '../../src/shared/panelProtocol.ts';
import { provenanceText, repositoryOriginOf } from '../../src/shared/repositoryOrigin.ts';
import { formatDate, h, icon, iconButton } from '../ui/dom.ts';
import { renderScoreBreakdown } from './scoreBreakdown.ts';
import { renderSearchKeys, type SearchKeyActions } from './searchKeysSection.ts';

export interface DetailActions extends SearchKeyActions {
  togglePin(): void;
  edit(): void;
  forget(): void;
  restore(): void;
  purge(): void;
  close(): void;
  open(memoryId: string): void;
  filterEntity(entity: string): void;
  filterTag(tag: string): void;
  promote(target: PromotionTarget): void;
  /** Opens the anchored code in the editor; absent where there is no editor (a browser panel). */
  goToCode?: () => void;
}

const SHARED_LAYERS = new Set(['project', 'team', 'org', 'company']);

/** The opened memory: content, classification, chips, metadata, supersedes chain and related memories. */
export function renderMemoryDetail(
  detail: MemoryDetail,
  recalled: RecalledMemory | undefined,
  targets: readonly PromotionTarget[],
  actions: DetailActions,
): HTMLElement {
  const { memory } = detail;
  const deleted = memory.deleted_at !== null;
  const origin = repositoryOriginOf(memory.metadata);
  // A memory of a shared layer is the team's: the panel shows it; it is changed through its file or an agent.
  const shared = SHARED_LAYERS.has(memory.layer);
  const promotable = targets.filter(
    (target) => !(target.layer === memory.layer && target.scope_id === memory.scope_id),
  );
  const toolbar = h(
    'div',
    { class: 'detail-toolbar', role: 'toolbar', 'aria-label': 'Memory actions' },
    shared
      ? h(
          'span',
          { class: 'muted shared-note' },
          origin
            ? `Shared in the ${memory.layer} layer: edit ${origin.path} to change it.`
            : `Shared in the ${memory.layer} ${memory.scope_id} layer (read-only here).`,
        )
      : deleted
        ? [
            h(
              'button',
              { type: 'button', 'data-action': 'restore', onclick: actions.restore },
              icon('discard'),
              ' Restore',
            ),
            h(
              'button',
              { type: 'button', 'data-action': 'purge', class: 'danger', onclick: actions.purge },
              icon('trash'),
              ' Delete permanently',
            ),
          ]
        : [
            h(
              'button',
              {
                type: 'button',
                'data-action': 'pin',
                'aria-pressed': String(memory.pinned),
                onclick: actions.togglePin,
              },
              icon(memory.pinned ? 'pinned' : 'pin'),
              memory.pinned ? ' Unpin' : ' Pin',
            ),
            h('button', { type: 'button', 'data-action': 'edit', onclick: actions.edit }, icon('edit'), ' Edit'),
            actions.goToCode && Array.isArray(memory.metadata.anchors) && memory.metadata.anchors.length > 0
              ? h(
                  'button',
                  { type: 'button', 'data-action': 'go-to-code', onclick: actions.goToCode },
                  icon('go-to-file'),
                  ' Go to code',
                )
              : null,
            h(
              'button',
              { type: 'button', 'data-action': 'forget', class: 'secondary', onclick: actions.forget },
              icon('trash'),
              ' Forget',
            ),
            h(
              'button',
              { type: 'button', 'data-action': 'purge', class: 'secondary danger-text', onclick: actions.purge },
              'Delete permanently',
            ),
            promotable.length > 0 ? renderPromoteSelect(promotable, actions.promote) : null,
          ],
    h('span', { class: 'spacer' }),
    iconButton('close', 'Close memory (Escape)', actions.close, { 'data-action': 'close' }),
  );
  const chips = (values: string[], kind: string, onClick: (value: string) => void): HTMLElement =>
    values.length === 0
      ? h('span', { class: 'muted' }, 'none')
      : h(
          'ul',
          { class: 'chips', 'aria-label': kind },
          values.map((value) =>
            h(
              'li',
              null,
              h(
                'button',
                {
                  type: 'button',
                  class: 'chip',
                  title: `Show memories with ${kind.toLowerCase()} ${value}`,
                  onclick: () => onClick(value),
                },
                value,
              ),
            ),
          ),
        );
  const meta: Array<[string, string]> = [
    ['Importance', memory.importance.toFixed(2)],
    ['Confidence', memory.confidence.toFixed(2)],
    ['Access count', String(memory.access_count)],
    ['Source', memory.source_type],
    ['Layer', memory.layer === 'user' ? 'user (your own)' : `${memory.layer} ${memory.scope_id}`],
    ['Scope', memory.project_id ? `project ${memory.project_id}` : 'user'],
    ['Session', memory.source_session ?? '—'],
    ['Created', formatDate(memory.created_at)],
    ['Updated', formatDate(memory.updated_at)],
    ['Last accessed', formatDate(memory.last_accessed)],
    ['Event time', formatDate(memory.event_time)],
    ['Embedding', memory.embedding_model ?? 'none'],
    ['Id', memory.memory_id],
  ];
  if (deleted) meta.unshift(['Forgotten', formatDate(memory.deleted_at)]);
  // A project memory shared as a .memory/ file: which file, commit and author, and what the last sync did.
  if (origin)
    meta.push([
      'Repository',
      `${provenanceText(origin)}${origin.last_sync ? ` · ${origin.last_sync.replaceAll('-', ' ')}` : ''}`,
    ]);
  // Keys and enrichment have their own section; the raw metadata view shows the rest.
  const shownElsewhere = new Set(['tags', 'search_keys', 'search_key_origins', 'search_keys_removed', 'enrichment']);
  const extraMetadata = Object.entries(memory.metadata).filter(([key]) => !shownElsewhere.has(key));
  return h(
    'article',
    { class: 'memory-detail', 'aria-label': 'Memory details', 'data-memory-id': memory.memory_id },
    toolbar,
    h(
      'p',
      { class: 'badges' },
      h(
        'span',
        { class: `badge category-${memory.memory_category}` },
        `${memory.memory_category} / ${memory.memory_subtype}`,
      ),
      memory.pinned ? h('span', { class: 'badge pinned' }, icon('pinned'), ' pinned') : null,
      memory.superseded_by ? h('span', { class: 'badge warning' }, 'superseded') : null,
      deleted ? h('span', { class: 'badge warning' }, 'in trash') : null,
    ),
    h('pre', { class: 'memory-content', tabindex: '0', 'aria-label': 'Content' }, memory.content),
    recalled ? renderScoreBreakdown(recalled) : null,
    h('h3', null, 'Entities'),
    chips(memory.entities, 'Entity', actions.filterEntity),
    h('h3', null, 'Tags'),
    chips(memory.tags, 'Tag', actions.filterTag),
    renderSearchKeys(detail.search_keys, detail.enrichment, !deleted, actions),
    h('h3', null, 'Details'),
    h(
      'dl',
      { class: 'meta' },
      meta.map(([label, value]) => [h('dt', null, label), h('dd', null, value)]),
    ),
    extraMetadata.length > 0
      ? [
          h('h3', null, 'Metadata'),
          h('pre', { class: 'metadata' }, JSON.stringify(Object.fromEntries(extraMetadata), null, 2)),
        ]
      : null,
    detail.chain.length > 0
      ? [h('h3', null, 'Supersedes chain (oldest first)'), summaryList(detail.chain, memory.memory_id, actions.open)]
      : null,
    detail.related.length > 0
      ? [h('h3', null, 'Related memories'), summaryList(detail.related, memory.memory_id, actions.open)]
      : null,
  );
}

/** Promotion is explicit (seed 001): picking a layer here asks for confirmation before anything is copied. */
function renderPromoteSelect(
  targets: readonly PromotionTarget[],
  promote: (target: PromotionTarget) => void,
): HTMLElement {
  const select = h(
    'select',
    {
      'data-action': 'promote',
      'aria-label': 'Promote to layer',
      title: 'Copy this memory into a shared layer; the copy records who promoted it and when',
      onchange: () => {
        const target = targets[Number(select.value)];
        select.value = '';
        if (target) promote(target);
      },
    },
    h('option', { value: '' }, 'Promote to…'),
    targets.map((target, index) => h('option', { value: String(index) }, target.label)),
  ) as HTMLSelectElement;
  return select;
}

function summaryList(items: MemorySummary[], currentId: string, open: (memoryId: string) => void): HTMLElement {
  return h(
    'ol',
    { class: 'summary-list' },
    items.map((item) =>
      h(
        'li',
        null,
        item.memory_id === currentId
          ? h('span', { class: 'current', 'aria-current': 'true' }, '(this memory) ', item.content)
          : h(
              'button',
              { type: 'button', class: 'link-button', onclick: () => open(item.memory_id) },
              `${item.memory_category}/${item.memory_subtype}${item.deleted ? ' (forgotten)' : ''}: ${item.content}`,
            ),
      ),
    ),
  );
}
