import { ageGateMarkup } from '@mesmer/shared/domain/age-gate';
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AgeGate } from './AgeGate.tsx';
import { settleServedAgeGate } from './age-gate.ts';

afterEach(() => {
  localStorage.clear();
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API.
  document.cookie = 'ageConfirmed=; max-age=0; path=/';
  document.getElementById('served-age-gate')?.remove();
});

function serveGate(): HTMLElement {
  const served = document.createElement('div');
  served.id = 'served-age-gate';
  served.innerHTML = ageGateMarkup();
  document.body.append(served);
  return served;
}

describe('AgeGate', () => {
  it("puts the gate's markup in a page that came without it, with its buttons enabled and focus on Enter", () => {
    const { container } = render(<AgeGate />);
    expect(container.innerHTML).toBe('');
    const gate = document.getElementById('served-age-gate');
    expect(gate?.innerHTML).toBe(ageGateMarkup().replaceAll(' disabled=""', ''));
    expect(screen.getAllByRole('alertdialog', { name: 'Adults only' })).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'I am 18 or older — Enter' })).toHaveFocus();
  });

  it('remembers the confirmation in localStorage and in a cookie the server reads', () => {
    render(<AgeGate />);
    fireEvent.click(screen.getByRole('button', { name: 'I am 18 or older — Enter' }));
    expect(localStorage.getItem('ageConfirmed')).toBe('true');
    expect(document.cookie).toContain('ageConfirmed=true');
  });

  it("takes over the gate the server's page carried instead of drawing a second one", () => {
    const served = serveGate();
    const enter = screen.getByRole('button', { name: 'I am 18 or older — Enter' });
    expect(enter).toBeDisabled();

    const { container, unmount } = render(<AgeGate />);
    expect(container.innerHTML).toBe('');
    expect(screen.getAllByRole('alertdialog', { name: 'Adults only' })).toHaveLength(1);
    expect(enter).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Leave' })).toBeEnabled();
    expect(enter).toHaveFocus();
    fireEvent.click(enter);
    expect(localStorage.getItem('ageConfirmed')).toBe('true');

    unmount();
    expect(served.hidden).toBe(true);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('at start, a visitor who confirmed before loses the served gate and gets the cookie back', () => {
    serveGate();
    settleServedAgeGate();
    expect(document.getElementById('served-age-gate')).not.toBeNull();
    expect(document.cookie).not.toContain('ageConfirmed=true');

    localStorage.setItem('ageConfirmed', 'true');
    settleServedAgeGate();
    expect(document.getElementById('served-age-gate')).toBeNull();
    expect(document.cookie).toContain('ageConfirmed=true');
  });
});
