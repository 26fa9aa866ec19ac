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
 * Free of `vscode`, so it is tested without an editor.
 */
export class LensRedelivery {
  /** Waits before each repeated announcement; at most this many repeats per change. */
  static readonly DELAYS_MS: readonly number[] = [400, 800, 1_600, 3_200, 6_400];

  private readonly announce: () => void;
  private readonly shownDocuments: () => readonly string[];
  private readonly delays: readonly number[];
  /** Documents shown in an editor that have not asked for lenses since the last change. */
  private owed = new Set<string>();
  private repeats = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    announce: () => void,
    shownDocuments: () => readonly string[],
    delays: readonly number[] = LensRedelivery.DELAYS_MS,
  ) {
    this.announce = announce;
    this.shownDocuments = shownDocuments;
    this.delays = delays;
  }

  /** The lenses changed: announce it now, and again until each document shown now has asked. */
  changed(): void {
    this.owed = new Set(this.shownDocuments());
    this.repeats = 0;
    this.announce();
    this.schedule();
  }

  /** The editor asked for a document's lenses: it has the current ones. */
  asked(document: string): void {
    this.owed.delete(document);
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
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // Documents closed since no longer need their lenses.
      const shown = new Set(this.shownDocuments());
      for (const document of this.owed) if (!shown.has(document)) this.owed.delete(document);
      if (this.owed.size === 0) return;
      this.repeats++;
      this.announce();
      this.schedule();
    }, this.delays[this.repeats]);
  }

  private stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
