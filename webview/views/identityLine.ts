import type { PanelInit } from '../../src/shared/panelProtocol.ts';
import { h, icon } from '../ui/dom.ts';

/**
 * Whose memories and which store the panel reads. Two windows that disagree (a second browser
 * profile, another data directory) show it here instead of a silent "0 memories".
 */
export function identityDescription(init: PanelInit): string {
  const user =
    init.user_label === init.user_id ? `user ${init.user_id}` : `${init.user_label} (user id ${init.user_id})`;
  return [
    `Memories of ${user}`,
    ...(init.user_source ? [`id from ${init.user_source}`] : []),
    ...(init.store ? [`store: ${init.store}`] : []),
  ].join('\n');
}

/** The Overview's "Reading" lines: user, where its id comes from, store. */
export function identitySection(init: PanelInit): HTMLElement {
  const row = (label: string, value: string): HTMLElement =>
    h('div', { class: 'identity-row' }, h('dt', null, label), h('dd', { title: value }, value));
  return h(
    'dl',
    { class: 'identity', 'aria-label': 'Whose memories this panel reads' },
    row('User', init.user_label === init.user_id ? init.user_id : `${init.user_label} · ${init.user_id}`),
    ...(init.user_source ? [row('User id from', init.user_source)] : []),
    ...(init.store ? [row('Store', init.store)] : []),
  );
}

export function userBadge(init: PanelInit): HTMLElement {
  return h('span', { class: 'user', title: identityDescription(init) }, icon('account'), ` ${init.user_label}`);
}
