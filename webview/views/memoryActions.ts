import type { MemoryDetail, PromotionTarget, SearchKeysParams, UpdateParams } from '../../src/shared/panelProtocol.ts';
import { describeError } from '../panelClient.ts';
import type { PanelContext } from '../panelContext.ts';
import { confirmDialog } from '../ui/confirmDialog.ts';

export interface ActionHooks {
  /** Memories left the current view (forgotten, restored out of the trash, purged). */
  removed(memoryIds: string[]): void;
  /** Something shown changed; re-read it. */
  changed(): void;
}

const count = (ids: readonly string[]): string => `${ids.length} memor${ids.length === 1 ? 'y' : 'ies'}`;

/**
 * What the user can do to memories, with the feedback each gives: changes visible in place are
 * announced to screen readers only; forgetting shows Undo; deleting for good asks first; promoting
 * (a copy shown nowhere in this list) says where it went; a failure shows the host's error and code.
 */
export class MemoryActions {
  private readonly context: PanelContext;
  private readonly hooks: ActionHooks;

  constructor(context: PanelContext, hooks: ActionHooks) {
    this.context = context;
    this.hooks = hooks;
  }

  async setPinned(memoryId: string, pinned: boolean): Promise<void> {
    await this.run(
      [memoryId],
      () => this.context.client.request('memory/update', { memory_id: memoryId, pinned }),
      () => {
        this.context.toasts.announce(pinned ? 'Pinned: always considered in context, never decays.' : 'Unpinned.');
        this.hooks.changed();
      },
    );
  }

  /** Resolves true when saved. */
  async update(changes: UpdateParams): Promise<boolean> {
    return this.run(
      [changes.memory_id],
      () => this.context.client.request('memory/update', changes),
      () => {
        this.context.toasts.announce(changes.content !== undefined ? 'Saved; the memory was re-embedded.' : 'Saved.');
        this.hooks.changed();
      },
    );
  }

  /** The memory as it is after the edit, or null when the host refused it (the toast says why). */
  async editSearchKeys(params: SearchKeysParams): Promise<MemoryDetail | null> {
    let detail: MemoryDetail | null = null;
    await this.run(
      [],
      () => this.context.client.request('memory/searchKeys', params),
      (result) => {
        detail = result;
        this.context.toasts.show(
          params.remove
            ? `Removed the search key "${params.remove.join('", "')}"; no model adds it back.`
            : 'Search key added.',
        );
      },
    );
    return detail;
  }

  async forget(ids: string[]): Promise<void> {
    await this.run(
      ids,
      () => this.context.client.request('memory/forget', { memory_ids: ids }),
      (result) => {
        this.hooks.removed(result.memory_ids);
        this.context.toasts.show(`Forgot ${count(result.memory_ids)}.`, 'info', {
          label: 'Undo',
          run: () => void this.restore(result.memory_ids),
        });
      },
    );
  }

  async restore(ids: string[]): Promise<void> {
    await this.run(
      ids,
      () => this.context.client.request('memory/restore', { memory_ids: ids }),
      (result) => {
        if (this.context.ui.state.filter.view === 'trash') this.hooks.removed(result.memory_ids);
        else this.hooks.changed();
        // The forget's Undo message goes away: the memory is back in the list.
        this.context.toasts.clear();
        this.context.toasts.announce(`Restored ${count(result.memory_ids)}.`);
      },
    );
  }

  async purge(ids: string[]): Promise<void> {
    const confirmed = await confirmDialog(
      'Delete permanently?',
      `${count(ids)} will be erased with their embeddings and access history. This cannot be undone.`,
      'Delete permanently',
    );
    if (!confirmed) return;
    await this.run(
      ids,
      () => this.context.client.request('memory/purge', { memory_ids: ids, confirm: true }),
      (result) => {
        this.hooks.removed(result.memory_ids);
        this.context.toasts.announce(`Deleted ${count(result.memory_ids)} permanently.`);
      },
    );
  }

  async promote(memoryId: string, target: PromotionTarget): Promise<void> {
    const confirmed = await confirmDialog(
      `Promote to ${target.label}?`,
      `A copy goes into the ${target.layer} layer, where everyone with that id can recall it. It records that you promoted it, and when; this memory stays where it is.`,
      'Promote',
    );
    if (!confirmed) return;
    // The copy is a new memory, announced under its own id: that notification reloads the list.
    await this.run(
      [],
      () => this.context.client.request('memory/promote', { memory_id: memoryId, to_layer: target.layer }),
      (result) => {
        this.context.toasts.show(
          result.action === 'already_promoted'
            ? `Already in the ${target.layer} layer.`
            : `Promoted to the ${target.layer} layer.`,
        );
        this.hooks.changed();
      },
    );
  }

  /**
   * `reread`: the memories the action changes and whose change the list re-reads itself on success
   * (through the hooks), so the host's notification of it does not reload the list again.
   */
  private async run<T>(
    reread: readonly string[],
    action: () => Promise<T>,
    success: (result: T) => void,
  ): Promise<boolean> {
    const withdraw = this.context.ownChanges.expect(reread);
    try {
      success(await action());
      return true;
    } catch (error) {
      withdraw();
      this.context.toasts.show(describeError(error), 'error');
      return false;
    }
  }
}
