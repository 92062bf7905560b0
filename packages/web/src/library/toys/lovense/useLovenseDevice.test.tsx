import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HapticDevice } from '../../../player/index.ts';
import { json, renderWithProviders, selfUser } from '../../../test/testing.tsx';
import { useLovenseDevice } from './useLovenseDevice.ts';

const player = vi.hoisted(() => ({ setHapticDevice: vi.fn() }));
vi.mock('../../../player/index.ts', () => player);

afterEach(() => {
  vi.unstubAllGlobals();
  player.setHapticDevice.mockReset();
});

function Driver({ enabled }: { enabled: boolean }) {
  useLovenseDevice(enabled);
  return null;
}

describe('useLovenseDevice', () => {
  it('gives the player a Lovense device while connected, whose levels become commands; none after', async () => {
    const { fetch, unmount } = renderWithProviders(<Driver enabled />, {
      user: selfUser(),
      fetchImpl: (_input, init) =>
        init?.method === 'POST' ? json(204, null) : json(200, { connected: true, toys: [] }),
    });
    await vi.waitFor(() => expect(player.setHapticDevice).toHaveBeenCalledTimes(1));
    const device = player.setHapticDevice.mock.calls[0][0] as HapticDevice;
    device.vibrate(7);
    await vi.waitFor(() =>
      expect(
        fetch.mock.calls
          .filter(([, init]) => init?.method === 'POST')
          .map(([url, init]) => [url, init?.body]),
      ).toEqual([['/api/lovense/command', JSON.stringify({ level: 7, timeSec: 0 })]]),
    );
    unmount();
    expect(player.setHapticDevice).toHaveBeenLastCalledWith(null);
  });

  it('asks nothing and sets no device when not enabled', async () => {
    const { fetch } = renderWithProviders(<Driver enabled={false} />, { user: selfUser() });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetch).not.toHaveBeenCalled();
    expect(player.setHapticDevice).not.toHaveBeenCalled();
  });

  it('sets no device while Lovense Remote is not connected', async () => {
    const { fetch } = renderWithProviders(<Driver enabled />, {
      user: selfUser(),
      fetchImpl: () => json(200, { connected: false, toys: [] }),
    });
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(player.setHapticDevice).not.toHaveBeenCalled();
  });
});
