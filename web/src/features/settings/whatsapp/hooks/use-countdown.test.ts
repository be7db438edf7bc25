import { act, renderHook } from '@testing-library/react';
import { secondsUntil, useCountdown } from './use-countdown';

describe('the resend countdown', () => {
  afterEach(() => vi.useRealTimers());

  it('counts whole seconds up, never below 0', () => {
    expect(secondsUntil(10_000, 0)).toBe(10);
    expect(secondsUntil(10_000, 9_001)).toBe(1);
    expect(secondsUntil(10_000, 10_000)).toBe(0);
    expect(secondsUntil(10_000, 12_000)).toBe(0);
  });

  it('ticks down every second to 0', () => {
    vi.useFakeTimers({ now: 0 });
    const { result, rerender } = renderHook(({ deadline }: { deadline: number | null }) => useCountdown(deadline), {
      initialProps: { deadline: 3_000 as number | null },
    });
    expect(result.current).toBe(3);
    act(() => vi.advanceTimersByTime(1_000));
    expect(result.current).toBe(2);
    act(() => vi.advanceTimersByTime(2_000));
    expect(result.current).toBe(0);
    rerender({ deadline: null });
    expect(result.current).toBe(0);
  });
});
