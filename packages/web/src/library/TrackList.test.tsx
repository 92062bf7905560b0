import { NEW_FILE_MS } from '@mesmer/shared/domain/file-new';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { play } from '../player/index.ts';
import { audioFile, renderWithProviders, selfUser } from '../test/testing.tsx';
import { TrackList } from './TrackList.tsx';

vi.mock('../player/index.ts', () => ({ play: vi.fn(), useCurrentFileId: () => null }));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(play).mockClear();
});

const rows = () => within(screen.getByRole('list', { name: 'Files' })).getAllByRole('listitem');

describe('TrackList', () => {
  it('numbers tracks with a leading zero below 10 and continues the count on later pages', () => {
    const files = Array.from({ length: 11 }, () => audioFile());
    renderWithProviders(<TrackList label="Files" files={files} />);
    expect(rows()[0]).toHaveTextContent(/^01/);
    expect(rows()[8]).toHaveTextContent(/^09/);
    expect(rows()[9]).toHaveTextContent(/^10/);
    expect(rows()[10]).toHaveTextContent(/^11/);
  });

  it('continues numbering from the page offset', () => {
    renderWithProviders(<TrackList label="Files" files={[audioFile()]} numberOffset={20} />);
    expect(rows()[0]).toHaveTextContent(/^21/);
  });

  it('shows name, author link, duration and the haptics and music icons', () => {
    const file = audioFile({ name: 'Ocean', hasHaptics: true, fileType: 7, duration: 3_725_000 });
    renderWithProviders(<TrackList label="Files" files={[file]} />);
    const row = rows()[0];
    expect(within(row).getByRole('button', { name: 'Ocean' })).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'creator' })).toHaveAttribute('href', '/user/creator');
    expect(within(row).getByText('1h 2m')).toBeInTheDocument();
    expect(within(row).getByRole('img', { name: 'Haptics' })).toBeInTheDocument();
    expect(within(row).getByRole('img', { name: 'Music' })).toBeInTheDocument();
  });

  it("tags files released within 5 days as 'New!'", () => {
    const fresh = audioFile({ releaseDate: new Date(Date.now() - NEW_FILE_MS + 60_000).toISOString() });
    const old = audioFile({ releaseDate: new Date(Date.now() - NEW_FILE_MS - 60_000).toISOString() });
    renderWithProviders(<TrackList label="Files" files={[fresh, old]} />);
    expect(within(rows()[0]).getByText('New!')).toBeInTheDocument();
    expect(within(rows()[1]).queryByText('New!')).not.toBeInTheDocument();
  });

  it('shows an eye-slash instead of the number for the viewer’s own private files', () => {
    const me = selfUser({ id: 5 });
    const own = audioFile({ isPublic: false, author: { id: 5, username: 'dreamer', patreonName: null } });
    const uploaded = audioFile({
      isPublic: false,
      userUploaded: true,
      author: { id: 5, username: 'dreamer', patreonName: null },
    });
    const others = audioFile({ isPublic: false });
    renderWithProviders(<TrackList label="Files" files={[own, uploaded, others]} />, { user: me });
    expect(within(rows()[0]).getByRole('img', { name: 'Only visible to you' })).toBeInTheDocument();
    expect(rows()[0]).not.toHaveTextContent(/^01/);
    expect(rows()[1]).toHaveTextContent(/^02/);
    expect(rows()[2]).toHaveTextContent(/^03/);
  });

  it('plays the list from the clicked track', () => {
    const files = [audioFile(), audioFile({ name: 'Second' })];
    renderWithProviders(<TrackList label="Files" files={files} />);
    fireEvent.click(screen.getByRole('button', { name: 'Second' }));
    expect(play).toHaveBeenCalledWith({ files, startIndex: 1 });
  });

  it('opens the paid-tier popup for a locked track instead of playing', () => {
    const locked = audioFile({
      name: 'Secret',
      isLocked: true,
      audioURL: null,
      patreonTiers: [
        { id: 'b', name: 'Silver', rank: 2 },
        { id: 'a', name: 'Bronze', rank: 1 },
      ],
      author: { id: 9, username: 'creator', patreonName: 'Creator Studio' },
    });
    const onPlay = vi.fn();
    renderWithProviders(<TrackList label="Files" files={[locked]} onPlay={onPlay} />);
    fireEvent.click(screen.getByRole('button', { name: /^Locked\s*Secret$/ }));
    expect(onPlay).not.toHaveBeenCalled();
    expect(play).not.toHaveBeenCalled();
    const dialog = screen.getByRole('dialog', { name: 'Secret' });
    expect(within(dialog).getByText(/Creator Studio’s Patreon supporters/)).toBeVisible();
    expect(within(dialog).getByText('Bronze')).toBeVisible();
    // The paid-tier notice is the one open accordion; signed-out viewers cannot add it anywhere.
    expect(within(dialog).getByRole('button', { name: 'Paid tier' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(within(dialog).getByRole('button', { name: 'Description' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    expect(within(dialog).queryByRole('button', { name: /Add to playlist/ })).not.toBeInTheDocument();
  });

  it('opens the track popup on right-click and with the info button', () => {
    const file = audioFile({ name: 'Calm', warnings: [{ text: 'Very deep.' }], description: 'Soft.' });
    renderWithProviders(<TrackList label="Files" files={[file]} />);
    fireEvent.contextMenu(screen.getByRole('button', { name: 'Calm' }));
    const dialog = screen.getByRole('dialog', { name: 'Calm' });
    // Not locked but with warnings: the warnings open first, and only one notice is open.
    expect(within(dialog).getByRole('button', { name: 'Warnings' })).toHaveAttribute('aria-expanded', 'true');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Description' }));
    expect(within(dialog).getByRole('button', { name: 'Warnings' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    expect(within(dialog).getByRole('button', { name: 'Description' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    fireEvent.click(screen.getByRole('button', { name: 'About Calm' }));
    expect(screen.getByRole('dialog', { name: 'Calm' })).toBeInTheDocument();
  });

  it('in disabled-tracks mode a click toggles the track instead of playing', () => {
    const files = [audioFile({ name: 'One' }), { ...audioFile({ name: 'Two' }), disabled: true }];
    const onToggle = vi.fn();
    renderWithProviders(<TrackList label="Files" files={files} onToggleDisabled={onToggle} />);
    expect(screen.getByRole('button', { name: 'One' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: /^Two\s*\(disabled\)$/ })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    fireEvent.click(screen.getByRole('button', { name: /^Two\s*\(disabled\)$/ }));
    expect(onToggle).toHaveBeenCalledWith(1);
    expect(play).not.toHaveBeenCalled();
  });

  it('censors trigger words in names for viewers who asked for it', () => {
    const file = audioFile({
      name: 'Good Girl Bliss',
      triggers: [{ id: 1, uuid: 'u', name: 'Good Girl', trains: true }],
    });
    const { unmount } = renderWithProviders(<TrackList label="Files" files={[file]} />, {
      user: selfUser({ censorTriggers: true }),
    });
    expect(screen.getByRole('button', { name: 'G**d G**l Bliss' })).toBeInTheDocument();
    unmount();
    renderWithProviders(<TrackList label="Files" files={[file]} />, {
      user: selfUser({ censorTriggers: false }),
    });
    expect(screen.getByRole('button', { name: 'Good Girl Bliss' })).toBeInTheDocument();
  });

  it("shows 'This playlist has no files!' with how to add some when empty", () => {
    renderWithProviders(<TrackList label="Files" files={[]} />);
    expect(screen.getByText('This playlist has no files!')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Files page' })).toHaveAttribute('href', '/files');
  });

  it('offers removal to the playlist owner after a Remove? confirmation', () => {
    const onRemove = vi.fn();
    renderWithProviders(
      <TrackList label="Files" files={[audioFile({ name: 'Mine' })]} onRemove={onRemove} />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'About Mine' }));
    fireEvent.click(screen.getByRole('button', { name: /Remove from playlist/ }));
    const confirm = screen.getByRole('dialog', { name: 'Remove?' });
    expect(onRemove).not.toHaveBeenCalled();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(onRemove).toHaveBeenCalledWith(0);
  });
});
