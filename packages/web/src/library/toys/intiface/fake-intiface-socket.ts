/**
 * For tests: a WebSocket stand-in (vi.stubGlobal('WebSocket', …)) behind which an in-memory
 * Intiface Central answers the Buttplug v3 protocol, so the real `buttplug` client runs against
 * it. Every message the client sent is kept, as the JSON it wrote.
 */

type Message = Record<string, { Id: number } & Record<string, unknown>>;

export interface FakeToy {
  DeviceIndex: number;
  DeviceName: string;
  DeviceMessages: Record<string, unknown>;
}

export const vibrator = (index: number, name: string, actuators = 1): FakeToy => ({
  DeviceIndex: index,
  DeviceName: name,
  DeviceMessages: {
    ScalarCmd: Array.from({ length: actuators }, () => ({
      FeatureDescriptor: 'Vibrator',
      StepCount: 20,
      ActuatorType: 'Vibrate',
    })),
    StopDeviceCmd: {},
  },
});

export const rotator = (index: number, name: string): FakeToy => ({
  DeviceIndex: index,
  DeviceName: name,
  DeviceMessages: { RotateCmd: [{ FeatureDescriptor: 'Rotator', StepCount: 20 }], StopDeviceCmd: {} },
});

export function fakeIntiface(opts: { toys?: FakeToy[]; maxPingTime?: number; reachable?: boolean } = {}) {
  const sent: Message[] = [];
  const sockets: FakeSocket[] = [];

  class FakeSocket extends EventTarget {
    readonly url: string;
    constructor(url: string) {
      super();
      this.url = url;
      sockets.push(this);
      queueMicrotask(() => {
        if (opts.reachable === false) {
          this.dispatchEvent(new Event('error'));
          this.dispatchEvent(new CloseEvent('close', { code: 1006 }));
        } else this.dispatchEvent(new Event('open'));
      });
    }
    send(data: string) {
      for (const message of JSON.parse(data) as Message[]) {
        sent.push(message);
        const [type] = Object.keys(message);
        const id = message[type].Id;
        const answer = (reply: Message) =>
          queueMicrotask(() =>
            this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify([reply]) })),
          );
        if (type === 'RequestServerInfo')
          answer({
            ServerInfo: { Id: id, ServerName: 'Fake', MessageVersion: 3, MaxPingTime: opts.maxPingTime ?? 0 },
          });
        else if (type === 'RequestDeviceList') answer({ DeviceList: { Id: id, Devices: opts.toys ?? [] } });
        else answer({ Ok: { Id: id } });
      }
    }
    private closed = false;
    /** As in a browser, the close event comes later, and once. */
    close() {
      if (this.closed) return;
      this.closed = true;
      queueMicrotask(() => this.dispatchEvent(new CloseEvent('close', { code: 1000 })));
    }
  }

  return {
    WebSocket: FakeSocket,
    sent,
    sockets,
    /** The device commands sent, without their message ids. */
    commands: () =>
      sent
        .filter((m) => !['RequestServerInfo', 'RequestDeviceList', 'Ping'].some((t) => t in m))
        .map((m) => {
          const [type] = Object.keys(m);
          const { Id: _id, ...body } = m[type];
          return { [type]: body };
        }),
  };
}
