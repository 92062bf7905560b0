/**
 * The connection to Intiface Central (Buttplug protocol over a WebSocket the browser opens to the
 * listener's own machine): connect, scan for toys, test one, disconnect. While connected, the
 * player drives the toys through createButtplugDevice; a disconnect (ours or Intiface's) takes the
 * device away again. One connection for the whole app, so leaving the settings page keeps it.
 */
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { HapticDevice } from '../../../player/index.ts';
import { type ButtplugToy, type ButtplugToys, canVibrate, createButtplugDevice } from './buttplug-device.ts';

/** Intiface Central's default server address. */
export const DEFAULT_INTIFACE_ADDRESS = 'ws://127.0.0.1:12345';
/** localStorage key of the last address connected to. */
const ADDRESS_KEY = 'intifaceAddress';
/** How long Connect waits for Intiface to answer. */
const CONNECT_TIMEOUT_MS = 10_000;
/** The Test button: this speed (0 to 1) for this long. */
export const TEST_SPEED = 0.5;
export const TEST_MS = 1_000;

/** A connected Buttplug client (buttplug's ButtplugClient, or a fake in tests). */
export interface IntifaceClient extends ButtplugToys {
  startScanning(): Promise<void>;
  stopScanning(): Promise<void>;
  disconnect(): Promise<void>;
  on(
    event: 'deviceadded' | 'deviceremoved' | 'scanningfinished' | 'disconnect',
    listener: () => void,
  ): unknown;
  removeAllListeners(): unknown;
}

/** Opens and handshakes a client for `address`; rejects when Intiface cannot be reached or refuses. */
export type OpenIntifaceClient = (address: string) => Promise<IntifaceClient>;

export interface IntifaceToy {
  index: number;
  name: string;
  canVibrate: boolean;
}

export interface IntifaceState {
  status: 'disconnected' | 'connecting' | 'connected';
  /** The address connected to (or last tried). */
  address: string;
  toys: IntifaceToy[];
  scanning: boolean;
  /** The toy index whose test vibration runs, if any. */
  testing: number | null;
  error: string | null;
}

const unreachable = (address: string) =>
  `Could not reach Intiface Central at ${address}. Is it running with its server started?`;

function describe(err: unknown): string {
  return err instanceof Error && err.message ? err.message : 'Unknown error.';
}

function toyOf(toy: ButtplugToy & { displayName?: string }): IntifaceToy {
  return { index: toy.index, name: toy.displayName || toy.name, canVibrate: canVibrate(toy) };
}

export function createIntifaceConnection(deps: {
  open: OpenIntifaceClient;
  /** The player's seam: the device while connected, null after. */
  setHapticDevice: (device: HapticDevice | null) => void;
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
}) {
  const savedAddress = () => {
    try {
      return deps.storage?.getItem(ADDRESS_KEY) || DEFAULT_INTIFACE_ADDRESS;
    } catch {
      return DEFAULT_INTIFACE_ADDRESS;
    }
  };
  const store = createStore<IntifaceState>()(() => ({
    status: 'disconnected',
    address: savedAddress(),
    toys: [],
    scanning: false,
    testing: null,
    error: null,
  }));
  let client: IntifaceClient | null = null;
  /** Counts connect attempts, so a late answer to an abandoned one is closed, not used. */
  let attempt = 0;

  const set = (patch: Partial<IntifaceState>) => store.setState(patch);
  const fail = (error: string) => set({ error });
  const refreshToys = () => {
    if (client?.connected) set({ toys: client.devices.map(toyOf) });
  };

  /** Forgets the client; `error` says why when it was not the listener's own doing. */
  function dropped(error: string | null) {
    if (!client) return;
    client.removeAllListeners();
    client = null;
    deps.setHapticDevice(null);
    set({ status: 'disconnected', toys: [], scanning: false, testing: null, error });
  }

  async function connect(input: string) {
    const address = input.trim();
    if (!/^wss?:\/\/[^\s/]+/.test(address)) {
      set({
        address,
        error: `Enter Intiface Central's server address, such as ${DEFAULT_INTIFACE_ADDRESS}.`,
      });
      return;
    }
    if (client) await disconnect();
    const mine = ++attempt;
    set({ status: 'connecting', address, error: null });
    let opened: IntifaceClient;
    try {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const pending = deps.open(address);
      opened = await Promise.race([
        pending,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Event('timeout')), CONNECT_TIMEOUT_MS);
        }),
      ]).finally(() => clearTimeout(timer));
      if (mine !== attempt) {
        void opened.disconnect().catch(() => {});
        return;
      }
    } catch (err) {
      if (mine !== attempt) return;
      // A WebSocket that cannot open rejects with an event or a close reason; buttplug's own
      // errors (a refused handshake, an outdated server) carry a message worth showing.
      const refused = err instanceof Error && !(err instanceof DOMException);
      set({
        status: 'disconnected',
        error: refused
          ? `Intiface Central at ${address} refused the connection: ${describe(err)}`
          : unreachable(address),
      });
      return;
    }
    client = opened;
    try {
      deps.storage?.setItem(ADDRESS_KEY, address);
    } catch {
      // Private mode: the address is just not remembered.
    }
    const current = opened;
    current.on('deviceadded', refreshToys);
    current.on('deviceremoved', refreshToys);
    current.on('scanningfinished', () => set({ scanning: false }));
    current.on('disconnect', () => {
      if (client === current) dropped(`Intiface Central at ${address} closed the connection.`);
    });
    set({ status: 'connected' });
    refreshToys();
    deps.setHapticDevice(
      createButtplugDevice(current, (err) => fail(`A toy did not take a command: ${describe(err)}`)),
    );
  }

  async function disconnect() {
    attempt += 1;
    const current = client;
    if (!current) {
      set({ status: 'disconnected' });
      return;
    }
    dropped(null);
    // Stops every toy (StopAllDevices) before closing.
    await current.disconnect().catch(() => {});
  }

  async function scan() {
    if (!client) return;
    const wasScanning = store.getState().scanning;
    set({ scanning: !wasScanning, error: null });
    try {
      await (wasScanning ? client.stopScanning() : client.startScanning());
    } catch (err) {
      set({ scanning: false });
      fail(`Intiface Central could not scan: ${describe(err)}`);
    }
  }

  /** Vibrates one toy at half speed for a second. */
  async function test(index: number) {
    const toy = client?.devices.find((d) => d.index === index);
    if (!toy) return;
    set({ testing: index, error: null });
    try {
      await toy.vibrate(TEST_SPEED);
      await new Promise((resolve) => setTimeout(resolve, TEST_MS));
      await toy.stop();
    } catch (err) {
      fail(`${toy.name} did not take the test: ${describe(err)}`);
    } finally {
      if (store.getState().testing === index) set({ testing: null });
    }
  }

  return { store, connect, disconnect, scan, test };
}
export type IntifaceConnection = ReturnType<typeof createIntifaceConnection>;

export function useIntiface(connection: IntifaceConnection): IntifaceState {
  return useStore(connection.store);
}
