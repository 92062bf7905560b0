import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOOLTIP_WIDTH, Tooltip } from './Tooltip.tsx';

describe('Tooltip', () => {
  it('shows its text while the pointer rests on the element, 200 px wide at most by default', () => {
    render(
      <Tooltip content="Listening streak">
        <span>3 days</span>
      </Tooltip>,
    );
    const tip = screen.getByRole('tooltip', { hidden: true });
    expect(tip).not.toBeVisible();
    fireEvent.mouseEnter(screen.getByText('3 days'));
    expect(screen.getByRole('tooltip')).toHaveTextContent('Listening streak');
    expect(TOOLTIP_WIDTH).toBe(200);
    expect(tip.style.maxWidth).toBe('min(200px, calc(100vw - 16px))');
    fireEvent.mouseLeave(screen.getByText('3 days'));
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('shows on focus, describes the element, hides on Escape and on blur; keeps its own handlers', () => {
    let focused = 0;
    render(
      <Tooltip content="Insert a link" width={320}>
        <button type="button" aria-label="Link" onFocus={() => focused++}>
          L
        </button>
      </Tooltip>,
    );
    const button = screen.getByRole('button', { name: 'Link' });
    act(() => button.focus());
    expect(focused).toBe(1);
    const tip = screen.getByRole('tooltip');
    expect(tip).toHaveTextContent('Insert a link');
    expect(tip.style.maxWidth).toBe('min(320px, calc(100vw - 16px))');
    expect(button).toHaveAccessibleDescription('Insert a link');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('tooltip')).toBeNull();
    act(() => button.blur());
    act(() => button.focus());
    expect(screen.getByRole('tooltip')).toBeVisible();
    act(() => button.blur());
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('stays inside the window near its right edge', () => {
    render(
      <Tooltip content="A rather long explanation that wraps">
        <button type="button">Right</button>
      </Tooltip>,
    );
    const button = screen.getByRole('button', { name: 'Right' });
    const anchor = button.parentElement as HTMLElement;
    anchor.getBoundingClientRect = () =>
      ({ left: window.innerWidth - 20, width: 16, top: 300, bottom: 316, height: 16 }) as DOMRect;
    const tip = screen.getByRole('tooltip', { hidden: true });
    tip.getBoundingClientRect = () => ({ width: 180, height: 40 }) as DOMRect;
    fireEvent.mouseEnter(button);
    expect(tip.style.left).toBe(`${window.innerWidth - 180 - 8}px`);
    expect(tip.style.top).toBe(`${300 - 40 - 8}px`);
    expect(tip.style.visibility).toBe('visible');
  });
});
