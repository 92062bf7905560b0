// A stand-in for Lovense's Standard API (docs: /work/shared/reference/integrations.md, Lovense), for
// the API tests and the journeys: it hands out pairing QR codes, serves their image, takes commands
// and keeps every request for assertions. `simulateScan` plays the Lovense Remote app after a scan.
// Commands are checked as Lovense documents them (`Function` with actions such as Vibrate:0-20,
// `timeSec` 0 or more than 1, loop times more than 1, `apiVer` 1): anything else answers code 404
// "Invalid Parameter", as Lovense does.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The pairing code every QR request of the fake gets. */
export const FAKE_QR_CODE = 'FAKE123';
/** A 1×1 PNG: the "QR code" the fake serves. */
export const FAKE_QR_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** What our server sent to POST /api/lan/getQrCode. */
export interface QrRequest {
  token: string;
  uid: string;
  uname: string;
  utoken: string;
  v: number;
}

/** What our server sent to POST /api/lan/v2/command. */
export interface CommandRequest {
  token: string;
  uid: string;
  command: string;
  action: string;
  timeSec: number;
  toy?: string;
  apiVer: number;
}

/** A toy as Lovense Remote reports it: id → {name, nickName, status (1 connected)}. */
export type FakeToys = Record<string, { name: string; nickName?: string; status?: number | string }>;

export interface FakeLovense {
  /** The base URL: LOVENSE_API_URL. */
  url: string;
  port: number;
  developerToken: string;
  /** Every QR request with the right developer token, in order. */
  qrRequests: QrRequest[];
  /** Every command with the right developer token, in order (refused ones too). */
  commands: CommandRequest[];
  /** Makes the next QR requests and commands answer as Lovense does when it fails (until reset). */
  failing: boolean;
  /** `simulateScan`, after which the fake takes commands for `uid` (Lovense Remote is online). */
  simulateScan(
    callbackUrl: string,
    uid: string,
    utoken: string,
    toys: FakeToys,
  ): Promise<{ status: number; body: string }>;
  /** `simulateScan` with the uid and utoken of the last QR request. */
  scan(callbackUrl: string, toys: FakeToys): Promise<{ status: number; body: string }>;
  /** Lovense Remote went offline for `uid`: its commands answer 507. */
  goOffline(uid: string): void;
  close(): Promise<void>;
}

/** Each action's strength range, as Lovense documents them. */
const ACTION_RANGES: Record<string, number> = {
  Vibrate: 20,
  Rotate: 20,
  Pump: 3,
  Thrusting: 20,
  Fingering: 20,
  Suction: 20,
  Depth: 3,
  Stroke: 100,
  Oscillate: 20,
  All: 20,
};

/** Why Lovense would refuse a `Function` command, or null when it takes it. */
export function invalidCommand(body: Record<string, unknown>): string | null {
  if (body.command !== 'Function') return 'command must be Function';
  if (body.apiVer !== 1) return 'apiVer must be 1';
  const action = body.action;
  if (typeof action !== 'string') return 'action is required';
  if (action !== 'Stop') {
    for (const part of action.split(',')) {
      const [name, level, ...rest] = part.split(':');
      const max = ACTION_RANGES[name];
      if (max === undefined || rest.length > 0 || !/^\d+$/.test(level ?? '') || Number(level) > max)
        return `action ${part} is out of range`;
    }
  }
  const seconds = (key: string, required: boolean) => {
    const value = body[key];
    if (value === undefined) return required ? `${key} is required` : null;
    return typeof value === 'number' && (value === 0 || value > 1) ? null : `${key} must be 0 or more than 1`;
  };
  return seconds('timeSec', true) ?? seconds('loopRunningSec', false) ?? seconds('loopPauseSec', false);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * What the Lovense Remote app posts to the callback URL after a scan (ports as strings, as the app
 * sends them). Answers our server's status and body.
 */
export async function simulateScan(
  callbackUrl: string,
  uid: string,
  utoken: string,
  toys: FakeToys,
): Promise<{ status: number; body: string }> {
  const res = await fetch(callbackUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      uid,
      utoken,
      appVersion: '6.3.2',
      toys: Object.fromEntries(
        Object.entries(toys).map(([id, t]) => [
          id,
          { id, name: t.name, nickName: t.nickName ?? '', status: t.status ?? 1 },
        ]),
      ),
      domain: '192-168-1-44.lovense.club',
      httpPort: '34567',
      httpsPort: '34568',
      wsPort: '34567',
      wssPort: '34568',
      appType: 'remote',
      version: '101',
      platform: 'android',
    }),
  });
  return { status: res.status, body: await res.text() };
}

/** Starts the fake on `port` (0: any free port) on 127.0.0.1. */
export async function startFakeLovense(
  opts: { port?: number; developerToken?: string } = {},
): Promise<FakeLovense> {
  const developerToken = opts.developerToken ?? 'fake-developer-token';
  const scanned = new Set<string>();
  const qrRequests: QrRequest[] = [];
  const commands: CommandRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://fake');
    if (req.method === 'GET' && pathname === `/qr/${FAKE_QR_CODE}.png`) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': FAKE_QR_PNG.length });
      res.end(FAKE_QR_PNG);
      return;
    }
    if (req.method !== 'POST') return send(res, 404, { code: 404, message: 'Not found' });
    const body = await readJson(req);
    if (body.token !== developerToken) {
      return send(res, 200, { code: 501, message: 'Invalid token', result: false });
    }
    if (pathname === '/api/lan/getQrCode') {
      qrRequests.push(body as unknown as QrRequest);
      if (fake.failing) return send(res, 200, { code: 500, message: 'Server error', result: false });
      return send(res, 200, {
        code: 0,
        message: 'Success',
        result: true,
        data: { qr: `${fake.url}/qr/${FAKE_QR_CODE}.png`, code: FAKE_QR_CODE },
      });
    }
    if (pathname === '/api/lan/v2/command') {
      commands.push(body as unknown as CommandRequest);
      if (fake.failing) return send(res, 200, { code: 506, message: 'Server error' });
      const invalid = invalidCommand(body);
      if (invalid) return send(res, 200, { code: 404, message: `Invalid Parameter: ${invalid}` });
      if (!scanned.has(String(body.uid))) return send(res, 200, { code: 507, message: 'Toy offline' });
      return send(res, 200, { code: 200, message: 'success' });
    }
    send(res, 404, { code: 404, message: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const fake: FakeLovense = {
    url: `http://127.0.0.1:${port}`,
    port,
    developerToken,
    qrRequests,
    commands,
    failing: false,
    async simulateScan(callbackUrl, uid, utoken, toys) {
      const answer = await simulateScan(callbackUrl, uid, utoken, toys);
      if (answer.status === 200) scanned.add(String(uid));
      return answer;
    },
    scan(callbackUrl, toys) {
      const last = qrRequests.at(-1);
      if (!last) throw new Error('The fake Lovense handed out no QR code yet.');
      return fake.simulateScan(callbackUrl, String(last.uid), last.utoken, toys);
    },
    goOffline(uid) {
      scanned.delete(uid);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
