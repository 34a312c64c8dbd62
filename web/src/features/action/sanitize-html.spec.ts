import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './form-fields';

describe('sanitizeHtml (admin html shown inside the app: help texts, online page blocks)', () => {
  it('drops scripts, frames, handlers and script urls, also with whitespace hidden in the scheme', () => {
    const html = sanitizeHtml(
      '<p onclick="x()">Hi</p><script>steal()</script><iframe src="/"></iframe>' +
        '<a href="java&#9;script:steal()">a</a><a href=" JavaScript:steal()">b</a>' +
        '<svg><a xlink:href="javascript:steal()"><text>c</text></a></svg>' +
        '<button formaction="javascript:steal()">d</button><a href="data:text/html,<script>steal()</script>">e</a>',
    );
    expect(html).not.toMatch(/steal|onclick|<script|<iframe/i);
    expect(html).toContain('<p>Hi</p>');
  });

  it('keeps ordinary links and embedded images', () => {
    const html = sanitizeHtml('<a href="https://example.com/terms">terms</a><img src="data:image/png;base64,AAAA">');
    expect(html).toContain('href="https://example.com/terms"');
    expect(html).toContain('src="data:image/png;base64,AAAA"');
  });
});
