/** The longest delay `setTimeout` honours (2^31 - 1 ms, about 24.8 days); Node runs a longer one after 1 ms. */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** A timer set by {@link setLongTimeout}. */
export interface LongTimeout {
  /** Stops the timer; the callback is not called. */
  clear(): void;
}

/** Calls `callback` once `ms` milliseconds have passed, however many: a longer wait is made in steps. */
export function setLongTimeout(callback: () => void, ms: number): LongTimeout {
  let left = ms;
  let timer: ReturnType<typeof setTimeout>;
  const arm = (): void => {
    const step = Math.min(left, MAX_TIMER_DELAY_MS);
    left -= step;
    timer = setTimeout(left > 0 ? arm : callback, step);
  };
  arm();
  return {
    clear: () => {
      clearTimeout(timer);
    },
  };
}
