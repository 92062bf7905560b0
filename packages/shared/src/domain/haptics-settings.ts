/** Slider ranges from the spec: max vibration 1-100, offset -1000..1000 ms in steps of 25. */
export const MAX_VIBRATION_RANGE = { min: 1, max: 100, default: 50 } as const;
export const VIBRATION_OFFSET_RANGE = { min: -1000, max: 1000, step: 25, default: 0 } as const;
