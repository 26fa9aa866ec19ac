/**
 * Announces a CodeLens change until the editors showing files have asked for their lenses again.
 *
 * Why: VS Code's CodeLens controller does not ask a provider as soon as it reports a change. It
 * waits a debounce (at least 250 ms, longer after slow answers: it is the provider's measured
 * latency), and when the editor's text loses focus meanwhile it drops that pending request; it
 * asks again only when the text regains focus or changes. A memory stored from a selection is
 * checked a moment after the command, which is when the user goes on to the palette or the memory
 * panel: the CodeLens then stayed missing until they clicked back into the code (the code-server
 * test saw it in 1 run of 8). A change announced after the editor lost focus is not dropped, so
 * the change is announced again, with backoff, until every editor showing a file has asked since.
 * Each announcement restarts VS Code's debounce, so repeats are spaced at least twice the time an
 * editor last took to ask after one: under load that was 3 s and more, and repeats closer than that
 * kept postponing the lens they were meant to bring. Free of `vscode`, so it is tested without an editor.
 */
export class LensRedelivery {
  /** Waits before each repeated announcement, at the least; at most this many repeats per change. */
  static readonly DELAYS_MS: readonly number[] = [400, 800, 1_600, 3_200, 6_400];
  /** The longest wait between repeats, however slow the editor was to ask. */
  static readonly MAX_WAIT_MS = 30_000;

  private readonly announce: () => void;
  private readonly shownDocuments: () => readonly string[];
  private readonly delays: readonly number[];
  /**
   * Per document shown, how many of its editors have not asked for lenses since the last change:
   * each editor asks on its own, and in a split only the one that had the focus lost its request.
   */
  private owed = new Map<string, number>();
  private repeats = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the last announcement was made, until an editor asks after it. */
  private announcedAt: number | undefined;
  /** How long an editor last took to ask after an announcement: VS Code's debounce plus the round trip. */
  private askLatency = 0;

  constructor(
    announce: () => void,
    shownDocuments: () => readonly string[],
    delays: readonly number[] = LensRedelivery.DELAYS_MS,
  ) {
    this.announce = announce;
    this.shownDocuments = shownDocuments;
    this.delays = delays;
  }

  /** The lenses changed: announce it now, and again until each editor showing a file now has asked. */
  changed(): void {
    this.owed = counted(this.shownDocuments());
    this.repeats = 0;
    this.announceNow();
    this.schedule();
  }

  /** An editor asked for a document's lenses: it has the current ones. */
  asked(document: string): void {
    if (this.announcedAt !== undefined) {
      this.askLatency = Date.now() - this.announcedAt;
      this.announcedAt = undefined;
    }
    const left = (this.owed.get(document) ?? 0) - 1;
    if (left > 0) this.owed.set(document, left);
    else this.owed.delete(document);
    if (this.owed.size === 0) this.stop();
  }

  dispose(): void {
    this.stop();
    this.owed.clear();
  }

  private schedule(): void {
    this.stop();
    // Bounded: an editor that never asks (CodeLens turned off, a file too large to tokenize) costs a few announcements.
    if (this.owed.size === 0 || this.repeats >= this.delays.length) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        // Editors closed since no longer need their lenses.
        const shown = counted(this.shownDocuments());
        for (const [document, count] of this.owed) {
          const now = shown.get(document) ?? 0;
          if (now === 0) this.owed.delete(document);
          else if (now < count) this.owed.set(document, now);
        }
        if (this.owed.size === 0) return;
        this.repeats++;
        this.announceNow();
        this.schedule();
      },
      Math.min(Math.max(this.delays[this.repeats], 2 * this.askLatency), LensRedelivery.MAX_WAIT_MS),
    );
  }

  private announceNow(): void {
    this.announcedAt = Date.now();
    this.announce();
  }

  private stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

function counted(documents: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const document of documents) counts.set(document, (counts.get(document) ?? 0) + 1);
  return counts;
}
