/**
 * A small round-robin HTTP and WebSocket proxy for running several identical server processes
 * on one machine (`npm run start:cluster`) and for the multi-process tests. Each request or
 * WebSocket upgrade goes to the next process in turn; a process that refuses the connection is
 * skipped (the request never reached it, so trying the next one is safe). It adds the client's
 * address to X-Forwarded-For, which the servers believe because they run with TRUST_PROXY set to
 * this proxy's address. In front of processes on several machines, use a real proxy (nginx,
 * HAProxy, a cloud load balancer): README, "Several processes".
 */
import http from 'node:http';
import net from 'node:net';

export interface ProxyTarget {
  host: string;
  port: number;
}

export interface RoundRobinProxy {
  url: string;
  port: number;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

function forwardedHeaders(req: http.IncomingMessage): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
  }
  const client = req.socket.remoteAddress ?? '';
  headers['x-forwarded-for'] = req.headers['x-forwarded-for']
    ? `${req.headers['x-forwarded-for']}, ${client}`
    : client;
  return headers;
}

export async function startRoundRobinProxy(opts: {
  targets: readonly ProxyTarget[];
  port?: number;
  host?: string;
}): Promise<RoundRobinProxy> {
  if (opts.targets.length === 0) throw new Error('startRoundRobinProxy: no targets');
  let turn = 0;
  const nextTarget = () => opts.targets[turn++ % opts.targets.length];

  const server = http.createServer((req, res) => {
    // A request without a body may go to the next process when one refuses the connection (it never
    // reached that process); a body has already been streamed into the refused attempt.
    const hasBody =
      req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    const attempt = (left: number) => {
      const target = nextTarget();
      const upstream = http.request(
        {
          host: target.host,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: forwardedHeaders(req),
        },
        (answer) => {
          const headers = { ...answer.headers };
          for (const name of HOP_BY_HOP) delete headers[name];
          res.writeHead(answer.statusCode ?? 502, headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'ECONNREFUSED' && !hasBody && left > 1) return attempt(left - 1);
        if (!res.headersSent) {
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: 'No server process answered. Try again in a moment.' }));
        } else res.destroy();
      });
      if (hasBody) req.pipe(upstream);
      else upstream.end();
    };
    attempt(opts.targets.length);
  });

  server.on('upgrade', (req, client: net.Socket, head: Buffer) => {
    const attempt = (left: number) => {
      const target = nextTarget();
      const upstream = net.connect(target.port, target.host, () => {
        const headers = forwardedHeaders(req);
        headers.connection = 'Upgrade';
        headers.upgrade = req.headers.upgrade;
        const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
        for (const [name, value] of Object.entries(headers)) {
          for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
        }
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      upstream.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'ECONNREFUSED' && left > 1 && upstream.bytesWritten === 0) return attempt(left - 1);
        client.destroy();
      });
      client.on('error', () => upstream.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    };
    attempt(opts.targets.length);
  });

  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, host, resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
