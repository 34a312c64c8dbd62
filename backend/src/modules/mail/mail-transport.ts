import fs from 'node:fs/promises';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';

export interface OutgoingMail {
  id: number;
  /** the queue row's Message-ID: the same on every attempt, so a receiver can drop a duplicate */
  messageId: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  cc?: string | null;
  attachments?: { filename: string; content: Buffer; contentType: string; cid?: string }[];
}

/** The suffix of an outbox file being written (renamed to its final name once complete). */
export const PART = '.part';

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

/** A send that takes longer than these gives up (well inside the queue's claim timeout). */
const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

/**
 * SMTP when SMTP_URL is set; otherwise every mail becomes an .eml file in DATA_DIR/outbox so the
 * embedded default works with no mail server (the file opens in any mail client).
 */
export class MailTransport {
  private readonly logger = new Logger('Mail');
  private readonly smtp?: Transporter;
  private readonly files?: Transporter;

  constructor(
    smtpUrl: string | undefined,
    private readonly outboxDir: string,
  ) {
    // A pool: a mass mail reuses a few connections instead of opening one per mail.
    if (smtpUrl)
      this.smtp = nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: 4, ...SMTP_TIMEOUTS });
    else this.files = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  get mode(): 'smtp' | 'outbox' {
    return this.smtp ? 'smtp' : 'outbox';
  }

  async send(mail: OutgoingMail): Promise<void> {
    const message = {
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? undefined,
      cc: mail.cc || undefined,
      attachments: mail.attachments,
      messageId: mail.messageId,
    };
    if (this.smtp) {
      await this.smtp.sendMail(message);
      return;
    }
    // Idempotent and atomic: the file of a mail (named by its id) exists whole or not at all. It is
    // written under a temporary name, flushed and renamed; a retry after a crash overwrites a
    // half-written temporary file, and finds a finished file already there.
    const file = this.outboxFile(mail.id);
    if (await exists(file)) {
      this.logger.log(`Mail ${mail.id} to ${mail.to} was already written to ${file}`);
      return;
    }
    const info = (await this.files!.sendMail(message)) as { message: Buffer };
    await fs.mkdir(this.outboxDir, { recursive: true });
    const temp = `${file}${PART}`;
    const handle = await fs.open(temp, 'w');
    try {
      await handle.writeFile(info.message);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
    this.logger.log(`Mail to ${mail.to} written to ${file}`);
  }

  /** The .eml file of a queue row in the outbox. */
  outboxFile(id: number): string {
    return path.join(this.outboxDir, `${String(id).padStart(8, '0')}.eml`);
  }

  close(): void {
    this.smtp?.close();
  }
}
