/** Time source; tests inject a fixed or movable clock. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/**
 * The system time moved by an adjustable offset. Used only when NODE_ENV=test and no
 * clock is injected, so end-to-end journeys can move server time (POST /api/test/clock).
 */
export class OffsetClock implements Clock {
  offsetMs = 0;
  now() {
    return new Date(Date.now() + this.offsetMs);
  }
}
