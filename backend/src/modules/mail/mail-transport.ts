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
}

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
    if (smtpUrl) this.smtp = nodemailer.createTransport(smtpUrl);
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
