import type { IncomingMessage } from 'node:http';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { Config } from '../config.ts';

/** The ranges behind TRUST_PROXY's names, as proxy-addr (Fastify's trustProxy) defines them. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

const unmapped = (address: string) =>
  address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;

function trustedList(entries: string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const entry of entries.flatMap((e) => NAMED_RANGES[e] ?? [e])) {
    const [address = '', prefix] = entry.split('/');
    const type = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(unmapped(address), isIPv4(unmapped(address)) ? 'ipv4' : type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    const plain = unmapped(address);
    if (isIPv4(plain)) return list.check(plain, 'ipv4') || list.check(`::ffff:${plain}`, 'ipv6');
    return isIPv6(plain) && list.check(plain, 'ipv6');
  };
}

/**
 * The client address of a raw request (a websocket handshake, which Fastify never sees) by the
 * rule Fastify applies to `req.ip` (app.ts): the peer, or, walking X-Forwarded-For from the
 * nearest hop, the first address that is not a trusted proxy (TRUST_PROXY: a hop count or the
 * proxies' addresses; unset = the peer).
 */
export function clientAddressReader(trustProxy: Config['trustProxy']): (req: IncomingMessage) => string {
  let trusted: ((address: string, hop: number) => boolean) | null = null;
  if (typeof trustProxy === 'number') trusted = (_address, hop) => hop < trustProxy;
  else if (trustProxy !== false) trusted = trustedList(trustProxy);
  return (req) => {
    const peer = req.socket.remoteAddress ?? '';
    if (!trusted) return peer;
    const header = req.headers['x-forwarded-for'];
    const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean)
      .reverse();
    const hops = [peer, ...forwarded];
    for (let i = 0; i < hops.length - 1; i++) {
      if (!trusted(hops[i] as string, i)) return hops[i] as string;
    }
    return hops[hops.length - 1] as string;
  };
}
