import type { SelfUser } from '@mesmer/shared/api/users';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, playlist, renderWithProviders, selfUser } from '../../test/testing.tsx';
import PlaylistPage from './PlaylistPage.tsx';

afterEach(() => vi.unstubAllGlobals());

const role = (name: string) => ({ name, showBadge: true, textColor: '#fff', background: '#000' });
const own = playlist({ id: 7, creator: { id: 5, username: 'dreamer' } });
const userInfo = {
  id: 7,
  isLiked: false,
  isDisliked: false,
  isFavorite: false,
  likes: 0,
  dislikes: 0,
  likeRatio: 0,
};

async function openEditor(user: SelfUser, saved: unknown[] = []) {
  renderWithProviders(<PlaylistPage />, {
    user,
    fetchImpl: (input, init) => {
      const { pathname } = new URL(String(input), 'http://localhost');
      if (pathname === '/api/playlists' && init?.method === 'PUT') {
        saved.push(JSON.parse(String(init.body)));
        return json(200, { playlist: own });
      }
      if (pathname === '/api/playlists') return json(200, { playlists: [own], totalItems: 1 });
      if (pathname === '/api/playlist/user') return json(200, userInfo);
      return json(200, { files: [], totalItems: 0 });
    },
  });
  fireEvent.click(await screen.findByRole('button', { name: /Edit/ }));
  expect(await screen.findByRole('button', { name: /Save/ })).toBeInTheDocument();
}

describe('PlaylistPage editor', () => {
  it('offers no Add Files search to an owner without upload permission', async () => {
    await openEditor(selfUser({ id: 5, roles: [] }));
    expect(screen.queryByLabelText('Add Files')).not.toBeInTheDocument();
  });

  it.each(['Verified Creator', 'Music Creator', 'Contributor'])(
    'offers the Add Files search to an owner with an upload permission (%s)',
    async (name) => {
      await openEditor(selfUser({ id: 5, roles: [role(name)] }));
      expect(screen.getByLabelText('Add Files')).toBeInTheDocument();
    },
  );
});

describe('PlaylistPage editor: saving', () => {
  it('asks for a name before saving, then saves the trimmed draft and leaves edit mode', async () => {
    const saved: unknown[] = [];
    await openEditor(selfUser({ id: 5, roles: [] }), saved);
    const name = screen.getByLabelText('Name');
    fireEvent.change(name, { target: { value: '  ' } });
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(saved).toEqual([]);

    fireEvent.change(name, { target: { value: '  Evening  ' } });
    expect(name).toHaveAttribute('aria-invalid', 'false');
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'Slow.' } });
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    expect(await screen.findByRole('button', { name: /Edit/ })).toBeInTheDocument();
    expect(saved).toEqual([
      {
        id: own.id,
        name: 'Evening',
        description: 'Slow.',
        expLevelId: own.expLevel,
        isPublic: own.isPublic,
        fileIds: own.files.map((f) => f.id),
        disabledFileIds: own.files.filter((f) => f.disabled).map((f) => f.id),
      },
    ]);
  });

  it('Cancel drops the draft', async () => {
    await openEditor(selfUser({ id: 5, roles: [] }));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Changed' } });
    fireEvent.click(screen.getByRole('button', { name: /Cancel/ }));
    expect(screen.getByRole('heading', { name: own.name })).toBeInTheDocument();
    expect(screen.queryByLabelText('Name')).not.toBeInTheDocument();
  });
});
