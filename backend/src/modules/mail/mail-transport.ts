import fs from 'node:fs/promises';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';

export interface OutgoingMail {
  id: number;
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  cc?: string | null;
  attachments?: { filename: string; content: Buffer; contentType: string; cid?: string }[];
}

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
    // A stable Message-ID per queue row lets receivers drop a duplicate after a crash mid-send.
    const message = {
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? undefined,
      cc: mail.cc || undefined,
      attachments: mail.attachments,
      messageId: `<mail-${mail.id}@accredo>`,
    };
    if (this.smtp) {
      await this.smtp.sendMail(message);
      return;
    }
    const info = (await this.files!.sendMail(message)) as { message: Buffer };
    await fs.mkdir(this.outboxDir, { recursive: true });
    const file = path.join(this.outboxDir, `${String(mail.id).padStart(8, '0')}.eml`);
    await fs.writeFile(file, info.message);
    this.logger.log(`Mail to ${mail.to} written to ${file}`);
  }

  close(): void {
    this.smtp?.close();
  }
}
