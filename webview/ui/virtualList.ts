import { h } from './dom.ts';
import { consume } from './keys.ts';

export interface VirtualListOptions {
  label: string;
  rowHeight: number;
  /** Builds the row at `index`; it is positioned by the list. */
  renderRow: (index: number, active: boolean) => HTMLElement;
  /** Called with the visible range (plus overscan) whenever it changes, to load missing pages. */
  onRange: (start: number, end: number) => void;
  onKey: (event: KeyboardEvent, index: number) => void;
  onActivate: (index: number) => void;
}

const OVERSCAN = 8;

/**
 * A list that renders only the rows in view, so 100,000 memories scroll like 50. One focusable
 * listbox with aria-activedescendant: arrow keys move the active row without moving DOM focus
 * into rows that may be recycled.
 */
export class VirtualList {
  readonly element: HTMLDivElement;
  private readonly spacer: HTMLDivElement;
  private readonly options: VirtualListOptions;
  private count = 0;
  private active = -1;
  private frame = 0;

  constructor(options: VirtualListOptions) {
    this.options = options;
    this.spacer = h('div', { class: 'virtual-spacer' });
    this.element = h(
      'div',
      {
        class: 'virtual-list',
        role: 'listbox',
        tabindex: '0',
        'aria-label': options.label,
        'aria-multiselectable': 'true',
      },
      this.spacer,
    );
    this.element.addEventListener('scroll', () => this.schedule());
    this.element.addEventListener('keydown', (event) => this.onKeyDown(event));
    // A pointer press focuses the list before its click lands; re-rendering rows in between would
    // swallow the click, so only keyboard focus activates the first row.
    let pointerDown = false;
    this.element.addEventListener('pointerdown', () => (pointerDown = true));
    this.element.addEventListener('pointerup', () => (pointerDown = false));
    this.element.addEventListener('focus', () => {
      if (!pointerDown && this.active < 0 && this.count > 0) this.setActive(0);
    });
    // One delegated handler finds the row from the position, so recycled row nodes never lose a click.
    this.element.addEventListener('click', (event) => {
      if ((event.target as HTMLElement).closest('button, input')) return;
      const index = Math.floor(
        (event.clientY - this.element.getBoundingClientRect().top + this.element.scrollTop) / this.options.rowHeight,
      );
      if (index < 0 || index >= this.count) return;
      this.setActive(index, false);
      this.options.onActivate(index);
    });
    new ResizeObserver(() => this.schedule()).observe(this.element);
  }

  get activeIndex(): number {
    return this.active;
  }

  setCount(count: number): void {
    this.count = count;
    if (this.active >= count) this.active = count - 1;
    // The list emptied under a keyboard user (forgot its last row) and filled again (Undo): the
    // focused list needs an active row again, or Space, Delete and Enter act on nothing.
    if (this.active < 0 && count > 0 && document.activeElement === this.element) this.active = 0;
    this.spacer.style.height = `${count * this.options.rowHeight}px`;
    this.render();
  }

  setActive(index: number, scroll = true): void {
    if (this.count === 0) return;
    this.active = Math.max(0, Math.min(this.count - 1, index));
    if (scroll) this.scrollIntoView(this.active);
    this.render();
  }

  resetScroll(): void {
    this.element.scrollTop = 0;
    this.active = -1;
  }

  /** Re-renders the visible rows (after data for them arrived or changed). */
  render(): void {
    const { rowHeight } = this.options;
    const top = this.element.scrollTop;
    const height = this.element.clientHeight || rowHeight * 20;
    const start = Math.max(0, Math.floor(top / rowHeight) - OVERSCAN);
    const end = Math.min(this.count, Math.ceil((top + height) / rowHeight) + OVERSCAN);
    const rows: HTMLElement[] = [];
    for (let index = start; index < end; index++) {
      const row = this.options.renderRow(index, index === this.active);
      row.id = `row-${index}`;
      row.setAttribute('role', 'option');
      row.setAttribute('aria-posinset', String(index + 1));
      row.setAttribute('aria-setsize', String(this.count));
      row.style.transform = `translateY(${index * rowHeight}px)`;
      row.style.height = `${rowHeight}px`;
      rows.push(row);
    }
    this.spacer.replaceChildren(...rows);
    if (this.active >= 0 && this.active < this.count)
      this.element.setAttribute('aria-activedescendant', `row-${this.active}`);
    else this.element.removeAttribute('aria-activedescendant');
    if (end > start) this.options.onRange(start, end);
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private scrollIntoView(index: number): void {
    const { rowHeight } = this.options;
    const top = index * rowHeight;
    if (top < this.element.scrollTop) this.element.scrollTop = top;
    else if (top + rowHeight > this.element.scrollTop + this.element.clientHeight)
      this.element.scrollTop = top + rowHeight - this.element.clientHeight;
  }

  private onKeyDown(event: KeyboardEvent): void {
    const page = Math.max(1, Math.floor(this.element.clientHeight / this.options.rowHeight) - 1);
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
    if (event.key in moves) {
      consume(event);
      this.setActive((this.active < 0 ? 0 : this.active) + (this.active < 0 ? 0 : moves[event.key]));
    } else if (event.key === 'Home') {
      consume(event);
      this.setActive(0);
    } else if (event.key === 'End') {
      consume(event);
      this.setActive(this.count - 1);
    } else if (event.key === 'Enter' && this.active >= 0) {
      consume(event);
      this.options.onActivate(this.active);
    } else if (this.active >= 0) {
      this.options.onKey(event, this.active);
    }
  }
}
