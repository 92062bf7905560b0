import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { selfUser } from '../../test/testing.tsx';
import { ProfileCard } from './ProfileCard.tsx';

function renderBiography(biography: string) {
  render(
    <ProfileCard
      user={selfUser({ biography })}
      heading="h1"
      avatarSize={40}
      stats={[]}
      emptyBiography="Nothing yet."
    />,
  );
  return screen.getByRole('region', { name: 'Biography' });
}

describe('the biography', () => {
  it("shows this site's own images, and a remote one as a link so its host never sees who views the profile", () => {
    const bio = renderBiography(
      `![uploaded](/media/images/me.png) ![absolute](${window.location.origin}/media/images/you.png) ` +
        '![a cat](https://images.example/cat.png) ![](//images.example/dog.png)',
    );
    expect(screen.getByRole('img', { name: 'uploaded' })).toHaveAttribute('src', '/media/images/me.png');
    expect(screen.getByRole('img', { name: 'absolute' })).toHaveAttribute(
      'src',
      `${window.location.origin}/media/images/you.png`,
    );
    expect(bio.querySelectorAll('img')).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'a cat' })).toHaveAttribute(
      'href',
      'https://images.example/cat.png',
    );
    expect(screen.getByRole('link', { name: '//images.example/dog.png' })).toHaveAttribute(
      'href',
      '//images.example/dog.png',
    );
  });

  it('links only over http(s) and mailto; a javascript: or data: link stays plain text', () => {
    const bio = renderBiography(
      '[site](https://example.com/) [mail](mailto:me@example.com) [run](javascript:alert(1)) ' +
        '[page](data:text/html,hi) ![pic](javascript:alert(2))',
    );
    expect(screen.getByRole('link', { name: 'site' })).toHaveAttribute('href', 'https://example.com/');
    expect(screen.getByRole('link', { name: 'mail' })).toHaveAttribute('href', 'mailto:me@example.com');
    expect(bio.querySelectorAll('a')).toHaveLength(2);
    expect(bio.querySelector('img')).toBeNull();
    expect(bio).toHaveTextContent('site mail run page pic');
  });
});
