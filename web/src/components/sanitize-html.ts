// Apart from the action form's fields so that the public pages do not load them (issue 15).

/** Elements and attributes an html preview never runs (scripts, frames, event handlers, js: links). */
const UNSAFE_ELEMENTS = 'script, iframe, frame, object, embed, link, meta, base, form';
const URL_ATTRIBUTES = new Set(['href', 'src', 'xlink:href', 'action', 'formaction', 'srcdoc']);

/** Html of a help text or page block, made inert for showing it inside the admin application. */
export function sanitizeHtml(html: string): string {
  if (typeof DOMParser === 'undefined') return '';
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const element of doc.body.querySelectorAll(UNSAFE_ELEMENTS)) element.remove();
  for (const element of doc.body.querySelectorAll('*')) {
    for (const attribute of [...element.attributes]) {
      const name = attribute.name.toLowerCase();
      // Browsers drop control characters and whitespace inside a URL's scheme ("java\tscript:").
      const value = attribute.value.replace(/[\p{Cc}\s]/gu, '').toLowerCase();
      if (
        name.startsWith('on') ||
        (URL_ATTRIBUTES.has(name) && /^(javascript|vbscript|data):/.test(value) && !value.startsWith('data:image/'))
      ) {
        element.removeAttribute(attribute.name);
      }
    }
  }
  return doc.body.innerHTML;
}
