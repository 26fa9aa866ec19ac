/**
 * Runs a refresh at most once per `delayMs` while changes keep arriving, and once more after the
 * last of them. A plain debounce (restart the timer on every change) never fires during a long
 * stream of changes, such as an import or an agent storing memories one after another: the status
 * bar's count then stood still until the stream ended.
 */
export class RefreshThrottle {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly run: () => void;
  private readonly delayMs: number;

  constructor(run: () => void, delayMs: number) {
    this.run = run;
    this.delayMs = delayMs;
  }

  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.run();
    }, this.delayMs);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
