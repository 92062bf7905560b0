/** Time source; tests inject a fixed or movable clock. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };
