import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { loadOnDemand } from './load-on-demand.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The action link in the message, logged when mail goes to the outbox folder. */
  link?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * SMTP when `smtpUrl` is set; otherwise each message is written to `outboxDir`
 * as a JSON file and its link logged, so a local user can still verify and reset.
 */
export function createMailer(opts: {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
}): Mailer {
  if (opts.smtpUrl) {
    const nodemailer = loadOnDemand('nodemailer') as typeof import('nodemailer');
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(m) {
        await transport.sendMail({ from: opts.from, to: m.to, subject: m.subject, text: m.text });
      },
    };
  }
  return {
    async send(m) {
      await fs.mkdir(opts.outboxDir, { recursive: true });
      const name = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`;
      const file = path.join(opts.outboxDir, name);
      // Written beside it, then renamed: whoever reads the folder never sees half a message.
      await fs.writeFile(
        `${file}.part`,
        JSON.stringify({ from: opts.from, ...m, sentAt: new Date().toISOString() }, null, 2),
      );
      await fs.rename(`${file}.part`, file);
      opts.log.info({ to: m.to, subject: m.subject, link: m.link }, 'mail written to outbox');
    },
  };
}
