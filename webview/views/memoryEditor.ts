import type { MemoryRecord } from '../../src/shared/panelProtocol.ts';
import type { PanelInit, UpdateParams } from '../../src/shared/panelProtocol.ts';
import { consume } from '../ui/keys.ts';
import { h } from '../ui/dom.ts';

/** The edit form of a memory; calls `save` with only the fields that changed. */
export function renderMemoryEditor(
  init: PanelInit,
  memory: MemoryRecord,
  save: (changes: UpdateParams) => void,
  cancel: () => void,
): HTMLElement {
  const content = h('textarea', { class: 'edit-content', rows: '8', 'aria-label': 'Memory content' });
  content.value = memory.content;
  const subtype = h('select', { 'aria-label': 'Subtype' });
  const fillSubtypes = (category: string, selected: string): void => {
    subtype.replaceChildren(
      ...(init.taxonomy[category] ?? []).map((name) => h('option', { value: name, selected: name === selected }, name)),
    );
  };
  const category = h(
    'select',
    { 'aria-label': 'Category', onchange: () => fillSubtypes(category.value, '') },
    Object.keys(init.taxonomy).map((name) =>
      h('option', { value: name, selected: name === memory.memory_category }, name),
    ),
  );
  fillSubtypes(memory.memory_category, memory.memory_subtype);
  const importance = h('input', {
    type: 'number',
    min: '0',
    max: '1',
    step: '0.05',
    value: String(memory.importance),
    'aria-label': 'Importance from 0 to 1',
  });
  const tags = h('input', { type: 'text', value: memory.tags.join(', '), 'aria-label': 'Tags, comma separated' });
  const form = h(
    'form',
    {
      class: 'memory-editor',
      'aria-label': 'Edit memory',
      onsubmit: (event: Event) => {
        event.preventDefault();
        const changes: UpdateParams = { memory_id: memory.memory_id, expected_version: memory.version };
        if (content.value !== memory.content) changes.content = content.value;
        if (category.value !== memory.memory_category || subtype.value !== memory.memory_subtype) {
          changes.memory_category = category.value;
          changes.memory_subtype = subtype.value;
        }
        const importanceValue = Number(importance.value);
        if (importanceValue !== memory.importance) changes.importance = importanceValue;
        const tagList = tags.value
          .split(',')
          .map((tag) => tag.trim())
          .filter(Boolean);
        if (tagList.join('\u0000') !== memory.tags.join('\u0000')) changes.tags = tagList;
        save(changes);
      },
      onkeydown: (event: KeyboardEvent) => {
        if (event.key === 'Escape') {
          consume(event);
          cancel();
        } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
          consume(event);
          form.requestSubmit();
        }
      },
    },
    h(
      'label',
      { class: 'field' },
      h('span', { class: 'field-label' }, 'Content (Ctrl+Enter saves, Escape cancels)'),
      content,
    ),
    h(
      'div',
      { class: 'editor-row' },
      h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Category'), category),
      h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Subtype'), subtype),
      h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Importance'), importance),
    ),
    h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Tags'), tags),
    h(
      'div',
      { class: 'dialog-actions' },
      h('button', { type: 'button', class: 'secondary', onclick: cancel }, 'Cancel'),
      h('button', { type: 'submit' }, 'Save'),
    ),
  );
  queueMicrotask(() => content.focus());
  return form;
}
