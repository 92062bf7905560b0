import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HapticDevice } from '../../../player/index.ts';
import type { ButtplugToy } from './buttplug-device.ts';
import { IntifacePanel } from './IntifacePanel.tsx';
import { createIntifaceConnection, type IntifaceClient } from './intiface-connection.ts';

type Event = Parameters<IntifaceClient['on']>[0];

function toy(index: number, name: string, vibrates = true): ButtplugToy {
  return {
    index,
    name,
    vibrateAttributes: vibrates ? [{ ActuatorType: 'Vibrate' }] : [],
    vibrate: vi.fn(async () => {}),
    stop: vi.fn(async () => {}),
  };
}

/** A connected client whose scan finds `found`. */
function fakeClient(found: ButtplugToy[]) {
  const listeners = new Map<Event, Set<() => void>>();
  const emit = (event: Event) => {
    for (const listener of listeners.get(event) ?? []) listener();
  };
  const client = {
    connected: true,
    devices: [] as ButtplugToy[],
    startScanning: vi.fn(async () => {
      queueMicrotask(() => {
        client.devices.push(...found);
        emit('deviceadded');
      });
    }),
    stopScanning: vi.fn(async () => emit('scanningfinished')),
    disconnect: vi.fn(async () => {
      client.connected = false;
      emit('disconnect');
    }),
    on(event: Event, listener: () => void) {
      listeners.set(event, (listeners.get(event) ?? new Set()).add(listener));
    },
    removeAllListeners() {
      listeners.clear();
    },
    /** Intiface Central went away. */
    lost() {
      client.connected = false;
      emit('disconnect');
    },
  };
  return client;
}

function setup(open: (address: string) => Promise<IntifaceClient>) {
  const devices: (HapticDevice | null)[] = [];
  const openSpy = vi.fn(open);
  const connection = createIntifaceConnection({
    open: openSpy,
    setHapticDevice: (d) => devices.push(d),
    storage: localStorage,
  });
  render(<IntifacePanel connection={connection} />);
  return { connection, devices, open: openSpy };
}

const address = () => screen.getByRole('textbox', { name: 'Intiface Central address' });

afterEach(() => vi.useRealTimers());

describe('IntifacePanel', () => {
  it('connects to the default address, scans, lists the toys, and tests one at 50 % for a second', async () => {
    const lush = toy(0, 'Lovense Lush');
    const client = fakeClient([lush, toy(1, 'The Handy', false)]);
    const { devices, open } = setup(async () => client);

    expect(address()).toHaveValue('ws://127.0.0.1:12345');
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText('Connected to Intiface Central.')).toHaveAttribute('role', 'status');
    expect(open).toHaveBeenCalledWith('ws://127.0.0.1:12345');
    expect(address()).toBeDisabled();
    // The player got a device driving this client's toys.
    expect(devices).toHaveLength(1);
    expect(screen.getByText('No toys yet. Switch your toy on and scan.')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Scan for toys' }));
    const list = await screen.findByRole('list', { name: 'Toys' });
    expect(client.startScanning).toHaveBeenCalled();
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Lovense LushTest', 'The Handy (cannot vibrate)']);
    fireEvent.click(screen.getByRole('button', { name: 'Stop scanning' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Scan for toys' })).toBeInTheDocument());
    expect(client.stopScanning).toHaveBeenCalled();

    vi.useFakeTimers();
    fireEvent.click(screen.getByRole('button', { name: 'Test Lovense Lush' }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(lush.vibrate).toHaveBeenCalledWith(0.5);
    expect(screen.getByRole('button', { name: 'Test Lovense Lush' })).toHaveTextContent('Testing…');
    await act(() => vi.advanceTimersByTimeAsync(999));
    expect(lush.stop).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(lush.stop).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Test Lovense Lush' })).toHaveTextContent('Test');
    vi.useRealTimers();

    // The device handed to the player drives the vibrating toy at level / 20.
    devices[0]?.vibrate(5);
    expect(lush.vibrate).toHaveBeenLastCalledWith(0.25);

    fireEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    await screen.findByRole('button', { name: 'Connect' });
    expect(client.disconnect).toHaveBeenCalled();
    expect(devices).toEqual([devices[0], null]);
    expect(screen.queryByRole('list', { name: 'Toys' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(localStorage.getItem('intifaceAddress')).toBe('ws://127.0.0.1:12345');
  });

  it('says Intiface Central could not be reached, and at which address', async () => {
    const { devices } = setup(() => Promise.reject(new Event('error')));
    fireEvent.change(address(), { target: { value: ' ws://127.0.0.1:9999 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not reach Intiface Central at ws://127.0.0.1:9999. Is it running with its server started?',
    );
    expect(address()).toHaveValue('ws://127.0.0.1:9999');
    expect(address()).toBeEnabled();
    expect(devices).toEqual([]);
  });

  it('shows why Intiface Central refused the handshake', async () => {
    setup(() =>
      Promise.reject(new Error('Server protocol version 2 is older than client protocol version 3.')),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Intiface Central at ws://127.0.0.1:12345 refused the connection: Server protocol version 2 is older',
    );
  });

  it('asks for a ws:// address before trying', async () => {
    const { open } = setup(async () => fakeClient([]));
    fireEvent.change(address(), { target: { value: '127.0.0.1:12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "Enter Intiface Central's server address, such as ws://127.0.0.1:12345.",
    );
    expect(open).not.toHaveBeenCalled();
  });

  it('takes the device from the player when Intiface Central closes the connection', async () => {
    const client = fakeClient([]);
    const { devices } = setup(async () => client);
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await screen.findByRole('button', { name: 'Disconnect' });
    act(() => client.lost());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Intiface Central at ws://127.0.0.1:12345 closed the connection.',
    );
    expect(devices).toEqual([expect.anything(), null]);
    expect(screen.getByRole('button', { name: 'Connect' })).toBeEnabled();
  });
});
