import fs from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { freshDatabase, TestClock, testConfig } from '../test/harness.ts';

interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** A local SMTP server on a free port that keeps what it receives. */
async function startFakeSmtp() {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Undoes quoted-printable soft line breaks and escapes, as a mail client would. */
function decodeQuotedPrintable(body: string): string {
  return body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16)));
}

const smtp = await startFakeSmtp();
afterAll(() => smtp.close());

/** The app with its real mailer (none injected), built from these settings. */
async function appWithRealMailer(overrides: Partial<Config>) {
  const config = testConfig(overrides);
  const database = await freshDatabase();
  const app = await buildApp(config, { database, clock: new TestClock(), logger: false });
  afterAll(async () => {
    await app.close();
    await database.close();
    fs.rmSync(config.dataDir, { recursive: true, force: true });
  });
  return { app, config };
}

const viaSmtp = await appWithRealMailer({
  smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
  mailFrom: 'Mesmer <no-reply@mesmer.test>',
  publicUrl: 'https://mesmer.example',
});
const smtpDown = await appWithRealMailer({ smtpUrl: 'smtp://127.0.0.1:1' });
const viaOutbox = await appWithRealMailer({});

function register(app: App, user: string, email: string) {
  return app.inject({
    method: 'POST',
    url: '/api/register',
    payload: { user, email, password: 'password 1' },
  });
}

describe('mail over SMTP', () => {
  it('delivers the verification e-mail with its link to the SMTP server', async () => {
    expect((await register(viaSmtp.app, 'smtp_user', 'smtp.user@example.test')).statusCode).toBe(201);
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail.from).toBe('no-reply@mesmer.test');
    expect(mail.to).toEqual(['smtp.user@example.test']);
    expect(mail.raw).toMatch(/^Subject: Confirm your e-mail for Mesmer\r?$/m);
    const text = decodeQuotedPrintable(mail.raw);
    expect(text).toMatch(/https:\/\/mesmer\.example\/verify\?token=[\w-]{43}/);
    expect(text).toContain('Hi smtp_user,');
  });

  it('keeps the sign-up when the SMTP server is unreachable', async () => {
    expect((await register(smtpDown.app, 'no_mail', 'no.mail@example.test')).statusCode).toBe(201);
  });
});

describe('mail without SMTP_URL', () => {
  it('writes the message with its link to DATA_DIR/outbox', async () => {
    expect((await register(viaOutbox.app, 'outboxer', 'outboxer@example.test')).statusCode).toBe(201);
    const dir = path.join(viaOutbox.config.dataDir, 'outbox');
    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(1);
    const mail = JSON.parse(fs.readFileSync(path.join(dir, files[0]), 'utf8'));
    expect(mail).toMatchObject({
      from: viaOutbox.config.mailFrom,
      to: 'outboxer@example.test',
      subject: 'Confirm your e-mail for Mesmer',
      link: expect.stringMatching(/^http:\/\/localhost:3000\/verify\?token=[\w-]{43}$/),
    });
    expect(mail.text).toContain(mail.link);
  });
});
