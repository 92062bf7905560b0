import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { audioFile, renderWithProviders } from '../test/testing.tsx';
import { PlayerBar } from './PlayerBar.tsx';
import { playerStore } from './store.ts';
import type { PlayerServices, PlayerTrack } from './types.ts';

const services: PlayerServices = {
  currentUser: () => null,
  pointsEarned: () => undefined,
  fetchFile: async () => null,
  planPosition: async () => 1,
  savePlanPosition: async () => undefined,
};

const initial = playerStore.getState();

beforeEach(() => {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => {});
  const track = audioFile({ name: 'Velvet Fog' });
  playerStore.setState({
    queue: { ...initial.queue, tracks: [track], index: 0, history: [0], starts: 1 },
    volume: 60,
  });
});
afterEach(() => {
  playerStore.setState(initial, true);
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const key = (k: string, target: Element = document.body) =>
  fireEvent.keyDown(target, { key: k, bubbles: true });

describe('PlayerBar shortcuts', () => {
  it('? opens the help popup listing every shortcut', () => {
    renderWithProviders(<PlayerBar services={services} />);
    key('?');
    const help = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const label of [
      'Play or pause',
      'Back 10 seconds',
      'Forward 10 seconds',
      'Volume up',
      'Volume down',
      'Mute or unmute',
      'Sleep timer',
    ]) {
      expect(within(help).getByText(label)).toBeVisible();
    }
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull();
  });

  it('arrows up and down change the volume, M mutes and unmutes; not while typing', () => {
    const { container } = renderWithProviders(
      <>
        <input aria-label="Search" />
        <PlayerBar services={services} />
      </>,
    );
    key('ArrowUp');
    expect(playerStore.getState().volume).toBe(70);
    key('ArrowDown');
    key('ArrowDown');
    expect(playerStore.getState().volume).toBe(50);
    key('m');
    expect(playerStore.getState().volume).toBe(0);
    expect(screen.getByRole('button', { name: 'Volume: 0' })).toBeVisible();
    key('M');
    expect(playerStore.getState().volume).toBe(50);
    key('m', screen.getByRole('textbox', { name: 'Search' }));
    expect(playerStore.getState().volume).toBe(50);
    expect(container).toBeTruthy();
  });

  it('S opens the sleep timer; choosing 15 minutes sets it', () => {
    renderWithProviders(<PlayerBar services={services} />);
    key('s');
    const panel = screen.getByRole('dialog', { name: 'Sleep timer' });
    expect(within(panel).getByRole('radio', { name: 'Off' })).toHaveFocus();
    fireEvent.click(within(panel).getByRole('radio', { name: '15 minutes' }));
    expect(playerStore.getState().sleepTimer).toMatchObject({ kind: 'minutes', minutes: 15 });
    expect(screen.getByRole('button', { name: 'Sleep timer: 15:00 left' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    fireEvent.click(within(panel).getByRole('radio', { name: 'Off' }));
    expect(playerStore.getState().sleepTimer).toBeNull();
  });
});

describe('PlayerBar wake-up and normalisation', () => {
  it('shows the wake-up button only while something plays', () => {
    renderWithProviders(<PlayerBar services={services} />);
    expect(screen.queryByRole('button', { name: 'Wake up' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    expect(screen.getByRole('button', { name: 'Wake up' })).toBeVisible();
  });

  it('has a Normalise loudness switch in the volume panel, on by default', () => {
    renderWithProviders(<PlayerBar services={services} />);
    fireEvent.click(screen.getByRole('button', { name: 'Volume: 60' }));
    const normalise = screen.getByRole('switch', { name: 'Normalise loudness' });
    expect(normalise).toHaveAttribute('aria-checked', 'true');
    fireEvent.click(normalise);
    expect(playerStore.getState().normalise).toBe(false);
  });
});

describe('PlayerBar script panel', () => {
  const renderScript = (track: PlayerTrack) => <p>Script text of {track.name}</p>;

  it("opens the current track's script in a dialog, and follows the track", () => {
    const scripted = audioFile({ name: 'Drifting Down', scriptURL: '/media/scripts/a.txt' });
    const other = audioFile({ name: 'Sleep Now', scriptURL: '/media/scripts/b.txt' });
    playerStore.setState({ queue: { ...playerStore.getState().queue, tracks: [scripted, other] } });
    renderWithProviders(<PlayerBar services={services} renderScript={renderScript} />);
    fireEvent.click(screen.getByRole('button', { name: 'Script' }));
    const dialog = screen.getByRole('dialog', { name: 'Script: Drifting Down' });
    expect(within(dialog).getByText('Script text of Drifting Down')).toBeVisible();
    // Space in the panel is not the player's: it scrolls the script.
    fireEvent.keyDown(within(dialog).getByText('Script text of Drifting Down'), { key: ' ', bubbles: true });
    expect(playerStore.getState().queue.playing).toBe(false);
    act(() => playerStore.setState({ queue: { ...playerStore.getState().queue, index: 1 } }));
    expect(screen.getByRole('dialog', { name: 'Script: Sleep Now' })).toBeVisible();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('disables Script for a track without one', () => {
    renderWithProviders(<PlayerBar services={services} renderScript={renderScript} />);
    expect(screen.getByRole('button', { name: 'Script' })).toBeDisabled();
  });
});
