import type { IncomingMessage } from 'node:http';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Config } from '../config.ts';
import { clientAddressReader } from './client-address.ts';

/** What Fastify answers as req.ip with the same TRUST_PROXY, as app.ts configures it. */
async function fastifyIp(
  trustProxy: Config['trustProxy'],
  peer: string,
  forwarded?: string,
): Promise<string> {
  const app = Fastify({
    trustProxy:
      typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
  });
  app.get('/', async (req) => req.ip);
  const res = await app.inject({
    method: 'GET',
    url: '/',
    remoteAddress: peer,
    headers: forwarded ? { 'x-forwarded-for': forwarded } : {},
  });
  await app.close();
  return res.body;
}

const request = (peer: string, forwarded?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwarded ? { 'x-forwarded-for': forwarded } : {},
  }) as unknown as IncomingMessage;

describe('the client address of a websocket handshake', () => {
  const cases: [Config['trustProxy'], string, string | undefined, string][] = [
    [false, '127.0.0.1', '203.0.113.9', '127.0.0.1'],
    [1, '127.0.0.1', '198.51.100.1, 203.0.113.9', '203.0.113.9'],
    [2, '127.0.0.1', '198.51.100.1, 203.0.113.9', '198.51.100.1'],
    [5, '127.0.0.1', '198.51.100.1', '198.51.100.1'],
    [['loopback'], '127.0.0.1', '198.51.100.1, 10.0.0.2', '10.0.0.2'],
    [['loopback', 'uniquelocal'], '127.0.0.1', '198.51.100.1, 10.0.0.2', '198.51.100.1'],
    [['loopback'], '::ffff:127.0.0.1', '198.51.100.1', '198.51.100.1'],
    [['loopback'], '203.0.113.7', '198.51.100.1', '203.0.113.7'],
    [['10.0.0.0/8', '192.0.2.5'], '192.0.2.5', '198.51.100.1, 10.1.2.3', '198.51.100.1'],
    [['fc00::/7'], 'fd00::1', '2001:db8::1', '2001:db8::1'],
  ];
  it.each(cases)(
    'TRUST_PROXY %j, peer %s, X-Forwarded-For %s → %s, as Fastify answers req.ip',
    async (trust, peer, forwarded, expected) => {
      expect(clientAddressReader(trust)(request(peer, forwarded))).toBe(expected);
      expect(await fastifyIp(trust, peer, forwarded)).toBe(expected);
    },
  );
});
