import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { currentUserQuery } from '../../api/users.ts';
import { selfUser } from '../../test/testing.tsx';
import { ProgressCard } from './ProgressCard.tsx';

function renderWith(user: Parameters<typeof selfUser>[0] | null) {
  const client = new QueryClient();
  client.setQueryData(currentUserQuery.queryKey, user && selfUser(user));
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ProgressCard />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('ProgressCard', () => {
  it('is not shown to visitors', () => {
    const { container } = renderWith(null);
    expect(container).toBeEmptyDOMElement();
  });

  it('shows level 0 and the way to level 1 for a new listener', () => {
    renderWith({ points: 0, streak: 0 });
    expect(screen.getByTestId('progress-level')).toHaveTextContent('0');
    expect(screen.getByTestId('progress-points')).toHaveTextContent('0');
    expect(screen.getByText('0 / 51 points to level 1')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuetext', '0%');
    expect(screen.queryByTitle('Listening streak')).toBeNull();
  });

  it('shows the level from the formula and the fraction to the next one', () => {
    // Level 2 needs 105 points, level 3 needs 164.
    renderWith({ points: 134, streak: 3 });
    expect(screen.getByTestId('progress-level')).toHaveTextContent('2');
    expect(screen.getByTestId('progress-points')).toHaveTextContent('134');
    expect(screen.getByText('29 / 59 points to level 3')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuetext', '49%');
    expect(screen.getByTitle('Listening streak')).toHaveTextContent('3 days');
  });

  it('formats large numbers', () => {
    renderWith({ points: 12_345, streak: 1 });
    expect(screen.getByTestId('progress-points')).toHaveTextContent('12,345');
  });
});
