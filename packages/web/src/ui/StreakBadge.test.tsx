import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StreakBadge } from './Tag.tsx';

describe('StreakBadge', () => {
  it.each([0, 1])('is hidden for a streak of %i', (days) => {
    const { container } = render(<StreakBadge days={days} />);
    expect(container).toBeEmptyDOMElement();
  });

  it.each([2, 30])('reads "N days" for a streak of %i', (days) => {
    render(<StreakBadge days={days} />);
    expect(screen.getByTitle('Listening streak')).toHaveTextContent(`${days} days`);
  });

  it('draws a flame icon, not an emoji that fonts may lack', () => {
    render(<StreakBadge days={3} />);
    const badge = screen.getByTitle('Listening streak');
    expect(badge.querySelector('svg')).not.toBeNull();
    expect(badge.textContent).toBe(' 3 days');
  });
});
