/** A stand-in for the socket.io client in component tests: records emits, lets a test push server events. */
export class FakeSocket {
  connected = false;
  readonly emitted: unknown[][] = [];
  private handlers = new Map<string, Set<(...args: unknown[]) => void>>();

  on(event: string, fn: (...args: unknown[]) => void) {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set());
    this.handlers.get(event)?.add(fn);
    return this;
  }
  off(event: string, fn: (...args: unknown[]) => void) {
    this.handlers.get(event)?.delete(fn);
    return this;
  }
  emit(...args: unknown[]) {
    this.emitted.push(args);
    return this;
  }
  connect() {
    this.connected = true;
    this.serverEmit('connect');
    return this;
  }
  disconnect() {
    this.connected = false;
    return this;
  }
  /** What the server would send: runs every handler of `event`. */
  serverEmit(event: string, ...args: unknown[]) {
    for (const fn of [...(this.handlers.get(event) ?? [])]) fn(...args);
  }
  listeners(event: string) {
    return this.handlers.get(event)?.size ?? 0;
  }
}
