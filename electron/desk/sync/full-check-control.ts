/** The full check under way, if any: one at a time, and people may stop it (what it stored stays). */
export class FullCheckControl {
  private controller: AbortController | undefined;

  get running(): boolean {
    return this.controller !== undefined;
  }

  /** Aborted when people stop the check under way. */
  get signal(): AbortSignal | undefined {
    return this.controller?.signal;
  }

  /** Runs `check`, unless a check is under way already (then resolves undefined). */
  async run<T>(check: () => Promise<T | undefined>): Promise<T | undefined> {
    if (this.controller) return undefined;
    const controller = new AbortController();
    this.controller = controller;
    try {
      return await check();
    } finally {
      if (this.controller === controller) this.controller = undefined;
    }
  }

  /** Stops the check under way; false when there is none. */
  stop(): boolean {
    if (!this.controller) return false;
    this.controller.abort();
    return true;
  }
}
