/**
 * A fake Intiface Central for tests: a WebSocket server speaking the Buttplug JSON protocol,
 * spec version 3 (docs/decisions/025-buttplug-client.md). It answers the handshake, finds one
 * vibrator ('Fake Vibrator', one Vibrate actuator) when asked to scan, answers Ok to device
 * commands, and records every command it received so a test can assert what a toy would have done.
 * Like the real server it drops a client that does not ping within MaxPingTime (when > 0).
 */
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

export const FAKE_VIBRATOR_NAME = 'Fake Vibrator';

/** A device command as received: ScalarCmd (spec v3), VibrateCmd (older clients), or a stop. */
export interface FakeButtplugCommand {
  type: 'ScalarCmd' | 'VibrateCmd' | 'StopDeviceCmd' | 'StopAllDevices';
  deviceIndex?: number;
  /** ScalarCmd: [{Index, Scalar, ActuatorType}]; VibrateCmd: [{Index, Speed}]. */
  scalars?: { Index: number; Scalar?: number; Speed?: number; ActuatorType?: string }[];
  /** ms since the fake started. */
  at: number;
}

type Message = Record<string, Record<string, unknown> & { Id?: number }>;

const FAKE_DEVICE = {
  DeviceIndex: 0,
  DeviceName: FAKE_VIBRATOR_NAME,
  DeviceMessageTimingGap: 100,
  DeviceMessages: {
    ScalarCmd: [{ FeatureDescriptor: 'Vibrator', StepCount: 20, ActuatorType: 'Vibrate' }],
    StopDeviceCmd: {},
  },
};

// Buttplug error classes (spec): 1 init, 3 message, 4 device.
const ERROR_INIT = 1;
const ERROR_MSG = 3;
const ERROR_DEVICE = 4;

export async function startFakeButtplug(opts: { port?: number; maxPingTime?: number } = {}) {
  const started = Date.now();
  const server = new WebSocketServer({ host: '127.0.0.1', port: opts.port ?? 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  const maxPingTime = opts.maxPingTime ?? 0;
  const commands: FakeButtplugCommand[] = [];
  let pings = 0;
  let handshakes = 0;
  let deviceFound = false;

  server.on('connection', (socket: WebSocket) => {
    let handshaken = false;
    let pingTimer: ReturnType<typeof setTimeout> | null = null;
    const send = (...messages: Message[]) => socket.send(JSON.stringify(messages));
    const ok = (id: number) => send({ Ok: { Id: id } });
    const error = (id: number, code: number, text: string) =>
      send({ Error: { Id: id, ErrorCode: code, ErrorMessage: text } });
    const expectPing = () => {
      if (maxPingTime <= 0) return;
      if (pingTimer) clearTimeout(pingTimer);
      pingTimer = setTimeout(() => socket.close(1000, 'Ping timeout'), maxPingTime);
    };
    socket.on('close', () => {
      if (pingTimer) clearTimeout(pingTimer);
    });

    socket.on('message', (data) => {
      let batch: Message[];
      try {
        batch = JSON.parse(String(data));
        if (!Array.isArray(batch)) throw new Error('not an array');
      } catch {
        return error(0, ERROR_MSG, 'Messages are a JSON array.');
      }
      for (const message of batch) {
        const [type] = Object.keys(message);
        const body = message[type];
        const id = Number(body.Id ?? 0);
        if (!handshaken && type !== 'RequestServerInfo') {
          error(id, ERROR_INIT, 'RequestServerInfo must come first.');
          continue;
        }
        switch (type) {
          case 'RequestServerInfo':
            handshaken = true;
            handshakes += 1;
            send({
              ServerInfo: {
                Id: id,
                ServerName: 'Fake Intiface',
                MessageVersion: 3,
                MaxPingTime: maxPingTime,
              },
            });
            expectPing();
            break;
          case 'Ping':
            pings += 1;
            expectPing();
            ok(id);
            break;
          case 'RequestDeviceList':
            send({ DeviceList: { Id: id, Devices: deviceFound ? [FAKE_DEVICE] : [] } });
            break;
          case 'StartScanning':
            ok(id);
            if (!deviceFound) {
              deviceFound = true;
              setTimeout(() => send({ DeviceAdded: { Id: 0, ...FAKE_DEVICE } }), 50);
            }
            break;
          case 'StopScanning':
            ok(id);
            send({ ScanningFinished: { Id: 0 } });
            break;
          case 'ScalarCmd':
          case 'VibrateCmd':
          case 'StopDeviceCmd':
          case 'StopAllDevices': {
            const deviceIndex = body.DeviceIndex as number | undefined;
            if (type !== 'StopAllDevices' && (!deviceFound || deviceIndex !== FAKE_DEVICE.DeviceIndex)) {
              error(id, ERROR_DEVICE, `Device ${deviceIndex} not found.`);
              break;
            }
            const scalars = (body.Scalars ?? body.Speeds) as FakeButtplugCommand['scalars'];
            commands.push({ type, deviceIndex, scalars, at: Date.now() - started });
            ok(id);
            break;
          }
          default:
            error(id, ERROR_MSG, `Unknown message ${type}.`);
        }
      }
    });
  });

  return {
    port,
    url: `ws://127.0.0.1:${port}`,
    /** Every device command received, in order. */
    commands,
    get pings() {
      return pings;
    },
    get handshakes() {
      return handshakes;
    },
    /** The commands as short strings: 'vibrate 0.5', 'stop', for readable assertions. */
    summary(): string[] {
      return commands.map((c) =>
        c.type === 'ScalarCmd' || c.type === 'VibrateCmd'
          ? `vibrate ${c.scalars?.map((s) => s.Scalar ?? s.Speed).join(',')}`
          : 'stop',
      );
    },
    /** Forget the recorded commands (the found device stays). */
    clear() {
      commands.length = 0;
    },
    /** Closes every client connection, as when Intiface Central's server is stopped. */
    dropClients() {
      for (const client of server.clients) client.close(1001, 'Server stopped');
    },
    async close() {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type FakeButtplug = Awaited<ReturnType<typeof startFakeButtplug>>;
