/**
 * A tiny element builder instead of a UI framework: the panel is a handful of views, and building
 * nodes directly keeps memory content on the safe path (text nodes, never HTML strings).
 */
export type Child = Node | string | number | null | undefined | false | Child[];
export type Props = Record<string, unknown>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props) applyProps(element, props);
  append(element, children);
  return element;
}

export function applyProps(element: HTMLElement, props: Props): void {
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      element.addEventListener(key.slice(2).toLowerCase(), value as EventListener);
    } else if (key === 'class') {
      element.className = String(value);
    } else if (
      key === 'value' ||
      key === 'checked' ||
      key === 'disabled' ||
      key === 'selected' ||
      key === 'indeterminate'
    ) {
      (element as unknown as Record<string, unknown>)[key] = value;
    } else {
      element.setAttribute(key, value === true ? '' : String(value));
    }
  }
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else
      parent.appendChild(
        typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child,
      );
  }
}

export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.textContent = '';
  append(parent, children);
}

/** A codicon; decorative, so hidden from screen readers (the control carries the label). */
export function icon(name: string): HTMLElement {
  return h('span', { class: `codicon codicon-${name}`, 'aria-hidden': 'true' });
}

/** An icon-only button with the accessible name and tooltip set together. */
export function iconButton(
  iconName: string,
  label: string,
  onClick: (event: MouseEvent) => void,
  props: Props = {},
): HTMLButtonElement {
  return h(
    'button',
    { type: 'button', class: 'icon-button', 'aria-label': label, title: label, onclick: onClick, ...props },
    icon(iconName),
  );
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (seconds < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} d ago`;
}

/** "14:02" today, "Nov 24, 14:02" on another day: when something started, as a clock reads it. */
export function formatClock(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const time = date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', hour12: false });
  return date.toDateString() === now.toDateString()
    ? time
    : `${date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })}, ${time}`;
}
