/**
 * The content security policies of every page the product serves: the backend's pages and API,
 * and the gate station's local server (which serves the same web app). One definition, so the two
 * cannot drift.
 */

/**
 * The policy of every HTML page (the web app and /api/docs), issue 10 item 6. Script only from
 * files of this origin, never inline (so injected markup cannot run). Styles may be inline: Mantine
 * sets style attributes and writes its CSS variables into a <style>. Images and fonts may also come
 * from https: badge templates and help texts, written by admins, may show a logo or use a web font
 * from elsewhere (the print and preview frames inherit this policy). No page may be framed.
 */
export const HTML_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data: https:",
  "connect-src 'self'",
  "media-src 'self' blob:",
  "worker-src 'self' blob:",
  "frame-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Anything else the API answers (JSON, files) is data, never a page that runs or loads anything. */
export const DATA_CSP = "default-src 'none'; frame-ancestors 'none'";
