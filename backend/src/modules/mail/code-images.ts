/** The person's code as inline images of a mail (withAccreditation): filled in with the engine's barcode. */
export async function codeImages(
  _code: string,
): Promise<{ filename: string; content: Buffer; contentType: string; cid?: string }[]> {
  return [];
}
