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
});
