/**
 * Sudo mode in the SPA: a sensitive action the gateway refused SUDO_REQUIRED waits here while the owner
 * gives his password again (SudoPromptHost shows the dialog). Refusals that arrive together share one
 * prompt; each is retried once it settles.
 */
export class SudoPrompt {
  private waiting: { promise: Promise<boolean>; resolve: (confirmed: boolean) => void } | null = null;
  private readonly listeners = new Set<() => void>();

  readonly isOpen = (): boolean => this.waiting !== null;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Resolves true once the password was confirmed (a new token is in place), false when the owner cancelled. */
  request(): Promise<boolean> {
    if (!this.waiting) {
      let resolve: (confirmed: boolean) => void = () => undefined;
      const promise = new Promise<boolean>((settle) => (resolve = settle));
      this.waiting = { promise, resolve };
      this.emit();
    }
    return this.waiting.promise;
  }

  settle(confirmed: boolean): void {
    const waiting = this.waiting;
    if (!waiting) return;
    this.waiting = null;
    this.emit();
    waiting.resolve(confirmed);
  }

  private emit(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** The tab's one prompt, used by the API client and shown by SudoPromptHost. */
export const sudoPrompt = new SudoPrompt();
