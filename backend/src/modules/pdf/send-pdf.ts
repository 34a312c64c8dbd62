import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** A PDF answered as a download (its name in content-disposition, as the xlsx and zip files are). */
export function sendPdf(reply: FastifyReply, file: Buffer | Readable, fileName: string, size?: number): void {
  reply
    .status(200)
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}"`)
    .header('cache-control', 'no-store');
  if (size !== undefined) reply.header('content-length', String(size));
  reply.send(file);
}
