/**
 * Opens the real Buttplug client: the npm `buttplug` 3.x client, which speaks spec version 3
 * (ScalarCmd), the version every Intiface Central since 2.x accepts (docs/decisions/025-buttplug-client.md).
 * The library is loaded with the first Connect, so nobody else downloads it.
 */
import type { IntifaceClient } from './intiface-connection.ts';

/** How the app introduces itself to Intiface Central (shown in its log). */
const CLIENT_NAME = 'Mesmer';

export async function openButtplugClient(address: string): Promise<IntifaceClient> {
  const { ButtplugBrowserWebsocketClientConnector, ButtplugClient, Ping, ServerInfo } = await import(
    'buttplug'
  );

  // The 3.x client does not ping yet (its timer is commented out), and an Intiface Central set
  // to a max ping time stops the toys and drops a client that stays silent that long.
  class PingingClient extends ButtplugClient {
    ping() {
      return this.sendMessage(new Ping());
    }
  }

  const connector = new ButtplugBrowserWebsocketClientConnector(address);
  let maxPingTime = 0;
  connector.on('message', (messages: unknown[]) => {
    for (const message of messages) if (message instanceof ServerInfo) maxPingTime = message.MaxPingTime;
  });
  const client = new PingingClient(CLIENT_NAME);
  await client.connect(connector);
  if (maxPingTime > 0) {
    const timer = setInterval(
      () => {
        if (client.connected) client.ping().catch(() => {});
        else clearInterval(timer);
      },
      Math.max(100, Math.floor(maxPingTime / 2)),
    );
  }
  return client;
}
