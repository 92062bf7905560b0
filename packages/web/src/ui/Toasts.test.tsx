import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastViewport } from './Toasts.tsx';
import { TOAST_DURATIONS, type ToastVariant, toast } from './toast-store.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  // Let every toast expire so the shared store starts empty for the next test.
  act(() => vi.runAllTimers());
  vi.useRealTimers();
});

describe('toasts', () => {
  it('has the spec durations', () => {
    expect(TOAST_DURATIONS).toEqual({ short: 3000, normal: 5000, long: 8000 });
  });

  it.each<ToastVariant>(['success', 'warning', 'error', 'info'])(
    'shows the %s variant with an icon',
    (variant) => {
      const { container } = render(<ToastViewport />);
      act(() => {
        toast(variant, `A ${variant}`, 'details');
      });
      const el = container.querySelector(`[data-variant="${variant}"]`);
      expect(el).toHaveTextContent(`A ${variant}`);
      expect(el).toHaveTextContent('details');
      expect(el?.querySelector('svg')).not.toBeNull();
    },
  );

  it('announces errors as alerts and the rest as status', () => {
    render(<ToastViewport />);
    act(() => {
      toast('error', 'Broken');
      toast('info', 'FYI');
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Broken');
    expect(screen.getByRole('status')).toHaveTextContent('FYI');
  });

  it.each([
    ['short', 3000],
    ['normal', 5000],
    ['long', 8000],
  ] as const)('removes a %s toast after %i ms', (duration, ms) => {
    render(<ToastViewport />);
    act(() => {
      toast('info', 'Timed', undefined, duration);
    });
    act(() => vi.advanceTimersByTime(ms - 1));
    expect(screen.getByText('Timed')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Timed')).toBeNull();
  });

  it('uses the normal duration by default', () => {
    render(<ToastViewport />);
    act(() => {
      toast('success', 'Saved');
    });
    act(() => vi.advanceTimersByTime(4999));
    expect(screen.getByText('Saved')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Saved')).toBeNull();
  });

  it('can be dismissed early', () => {
    render(<ToastViewport />);
    act(() => {
      toast('warning', 'Careful');
    });
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Careful')).toBeNull();
  });
});
