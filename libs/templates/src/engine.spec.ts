import { describe, expect, it } from 'vitest';
import {
  barcodeSvg,
  buildContext,
  compileTemplate,
  findPlaceholders,
  PAGE_SIZES_MM,
  PLACEHOLDERS,
  pageCss,
  pageSizeMm,
  printDocument,
  renderTemplate,
  SAMPLE_PHOTO,
  sampleInput,
  sampleParams,
  TemplateError,
  type TemplateParams,
  validateTemplate,
} from './index.js';

const person: TemplateParams = {
  id: 7,
  custom_id: 3,
  bc: 'ABCD2345EFGH6789',
  firstname: 'Anna',
  lastname: 'Nováková',
  email: 'anna@example.com',
  group: 'Press',
  zones: ['A', 'B'],
  custom_field: { 12: 'ACME', 13: '' },
  user_image: '/api/file/123e4567',
  html_data: '<b class="grp">Press</b>',
  days: [
    { id: '2027-05-10', name: 'Monday', onAccreditation: 'MO' },
    { id: '2027-05-11', name: 'Tuesday', onAccreditation: 'TU' },
  ],
  day: 'Monday, Tuesday',
  d: 'MO, TU',
  actionName: 'Fair',
  smartLink: 'https://accredo.example/preview/demo/cid/ABCD2345EFGH6789',
};

describe('escaping', () => {
  it('renders a <script> in a first name as inert text, in {{ }} and in {{{ }}} alike', () => {
    const evil = { ...person, firstname: '<script>alert(1)</script>', lastname: '"><img src=x onerror=alert(1)>' };
    const html = renderTemplate('<p>{{firstname}}</p><p>{{{firstname}}}</p><a title="{{lastname}}">x</a>', evil);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&quot;&gt;&lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;');
  });

  it('escapes values inside loops, lookups and user fields', () => {
    const evil = {
      ...person,
      zones: ['<i>z</i>'],
      custom_field: { 12: '<b>bold</b>' },
      days: [{ id: '1', name: '<u>d</u>', onAccreditation: 'x' }],
    };
    const html = renderTemplate(
      '{{#each zones}}{{this}}{{/each}}|{{custom_field[12]}}|{{lookup custom_field 12}}|{{#each days}}{{name}}{{/each}}',
      evil,
    );
    expect(html).toBe('&lt;i&gt;z&lt;/i&gt;|&lt;b&gt;bold&lt;/b&gt;|&lt;b&gt;bold&lt;/b&gt;|&lt;u&gt;d&lt;/u&gt;');
  });

  it('inserts only its own markup and the group html raw', () => {
    const html = renderTemplate('{{bc}}|{{user_image}}|{{html_data}}', person);
    expect(html).toMatch(/^<svg class="bc bc-qrcode"/);
    expect(html).toContain('<img class="user-image" src="/api/file/123e4567" alt="">');
    expect(html).toContain('<b class="grp">Press</b>');
  });

  it('refuses a photo URL with a script scheme and escapes the URL it keeps', () => {
    expect(renderTemplate('{{user_image}}', { ...person, user_image: 'javascript:alert(1)' })).toBe('');
    expect(renderTemplate('{{user_image}}', { ...person, user_image: '/api/file/a"b' })).toBe(
      '<img class="user-image" src="/api/file/a&quot;b" alt="">',
    );
    expect(renderTemplate('{{user_image}}', { ...person, user_image: SAMPLE_PHOTO })).toContain('data:image/svg+xml');
  });
});

describe('placeholders and loops', () => {
  it('fills every placeholder of the spec', () => {
    const html = renderTemplate(
      '{{id}}/{{custom_id}} {{firstname}} {{lastname}} {{email}} {{group}} {{zones[1]}} {{zones.[0]}} {{custom_field[12]}} {{day}} {{d}} {{actionName}} {{smartLink}}',
      person,
    );
    expect(html).toBe(
      '7/3 Anna Nováková anna@example.com Press B A ACME Monday, Tuesday MO, TU Fair https://accredo.example/preview/demo/cid/ABCD2345EFGH6789',
    );
  });

  it('walks arrays with #each, block params, @index and ../', () => {
    const html = renderTemplate(
      '{{#each days}}[{{@index}} {{id}} {{name}} {{onAccreditation}} {{../firstname}}]{{/each}}{{#each days as |day|}}<{{day.onAccreditation}}>{{/each}}{{#each zones}}{{this}}{{else}}none{{/each}}',
      person,
    );
    expect(html).toBe('[0 2027-05-10 Monday MO Anna][1 2027-05-11 Tuesday TU Anna]<MO><TU>AB');
    expect(renderTemplate('{{#each zones}}{{this}}{{else}}none{{/each}}', { ...person, zones: [] })).toBe('none');
  });

  it('renders a nocheck placeholder as the placeholder without the suffix', () => {
    expect(renderTemplate('{{firstname_nocheck}} {{custom_field_nocheck[12]}} {{lastnamenocheck}}', person)).toBe(
      'Anna ACME Nováková',
    );
  });

  it('finds placeholders with their paths, loops resolved', () => {
    const found = findPlaceholders(
      '{{firstname}} {{zones[0]}} {{#each days}}{{name}}{{/each}} {{#if email}}{{email}}{{/if}} {{foo_nocheck}} {{@root.lastname}}',
    );
    expect(found.map((p) => [p.name, p.nocheck])).toEqual([
      ['firstname', false],
      ['zones[0]', false],
      ['days', false],
      ['days[].name', false],
      ['email', false],
      ['foo', true],
      ['lastname', false],
    ]);
  });

  it('offers the catalogue the help lists, with an i18n key each', () => {
    expect(PLACEHOLDERS.map((p) => p.name)).toEqual([
      'id',
      'custom_id',
      'bc',
      'firstname',
      'lastname',
      'email',
      'group',
      'zones',
      'custom_field',
      'user_image',
      'html_data',
      'days',
      'day',
      'd',
      'actionName',
      'smartLink',
    ]);
    for (const p of PLACEHOLDERS) expect(p.key).toMatch(/^template\.ph\./);
  });
});

describe('validateTemplate', () => {
  it('lists placeholders without a value as missing and unknown ones as not found', () => {
    const check = validateTemplate(
      '{{firstname}} {{lastname}} {{zones[5]}} {{custom_field[12]}} {{custom_field[13]}} {{custom_field[99]}} {{nickname}} {{firstname.x}} {{html_data}}',
      { ...person, lastname: '', html_data: null },
    );
    expect(check.missing.sort()).toEqual(['custom_field[13]', 'custom_field[99]', 'html_data', 'lastname', 'zones[5]']);
    expect(check.unknown.sort()).toEqual(['firstname.x', 'nickname']);
  });

  it('skips nocheck placeholders, known or not', () => {
    expect(validateTemplate('{{lastname_nocheck}} {{whatevernocheck}} {{custom_field_nocheck[99]}}', {})).toEqual({
      missing: [],
      unknown: [],
      marks: [],
    });
  });

  it('needs id, name and onAccreditation on every day, and knows no other day field', () => {
    const check = validateTemplate('{{#each days}}{{name}} {{colour}}{{/each}}', {
      days: [
        { id: '2027-05-10', name: 'Monday', onAccreditation: 'MO' },
        { id: '2027-05-11', name: '', onAccreditation: '' } as never,
      ],
    });
    expect(check.missing).toEqual(['days[1].name', 'days[1].onAccreditation']);
    expect(check.unknown).toEqual(['days[].colour']);
    expect(validateTemplate('{{#each days}}{{name}}{{/each}}', { days: [] }).missing).toEqual(['days']);
  });

  it('reports an unknown helper as not found and a block over an unknown list', () => {
    const check = validateTemplate('{{upper firstname}} {{#badges}}x{{/badges}}', person);
    expect(check.unknown).toEqual(['upper', 'badges']);
  });

  it('passes a full template with every value given', () => {
    const html = PLACEHOLDERS.map((p) => p.code).join(' ');
    expect(validateTemplate(html, person)).toEqual({ missing: [], unknown: [], marks: [] });
  });
});

describe('errors', () => {
  it('throws a TemplateError with the line and no stack trace text on a syntax error', () => {
    const attempt = () => renderTemplate('<p>\n{{#each days}}\n{{name}}\n', person);
    expect(attempt).toThrow(TemplateError);
    try {
      attempt();
    } catch (error) {
      const e = error as TemplateError;
      expect(e.code).toBe('TEMPLATE_SYNTAX_ERROR');
      expect(e.message).toMatch(/^Template error on line \d+: /);
      expect(e.message).not.toMatch(/\bat .*\.js/);
    }
    expect(() => validateTemplate('{{firstname}', {})).toThrow(/line 1/);
    expect(() => findPlaceholders('{{#if x}}{{/each}}')).toThrow(TemplateError);
  });

  it('refuses partials, unknown helpers at render time and log', () => {
    expect(() => renderTemplate('{{> badge}}', person)).toThrow(/partials/);
    expect(() => renderTemplate('{{upper firstname}}', person)).toThrow(TemplateError);
    expect(() => renderTemplate('{{log firstname}}', person)).toThrow(TemplateError);
  });

  it('never reaches the prototype', () => {
    expect(renderTemplate('{{constructor}}{{firstname.constructor}}{{__proto__}}', person)).toBe('');
  });
});

describe('barcode', () => {
  it('draws a QR code by default as SVG with a white background and a quiet zone', () => {
    const svg = barcodeSvg('ABCD2345EFGH6789');
    expect(svg).toMatch(/^<svg class="bc bc-qrcode" width="30mm" role="img" aria-label="ABCD2345EFGH6789"/);
    expect(svg).toMatch(/viewBox="0 0 (\d+) \1"/);
    expect(svg).toContain('fill="#FFFFFF"');
    expect(svg).toMatch(/<path d="M8 /); // the symbol starts 8 units (4 modules) in
    expect(svg.trim()).toMatch(/<\/svg>$/);
  });

  it('draws Code 128 when asked, and renders bc only when there is a code', () => {
    expect(barcodeSvg('ABC123', 'code128')).toMatch(/^<svg class="bc bc-code128"/);
    expect(renderTemplate('{{bc}}', { ...person, bc: 'X1' }, { barcodeType: 'code128' })).toContain('bc-code128');
    expect(renderTemplate('[{{bc}}]', { ...person, bc: '' })).toBe('[]');
  });

  it('compiles once and renders many', () => {
    const render = compileTemplate('{{firstname}} {{bc}}');
    const a = render({ ...person, bc: 'AAAA' });
    const b = render({ ...person, firstname: 'Bob', bc: 'BBBB' });
    expect(a).toContain('aria-label="AAAA"');
    expect(b).toMatch(/^Bob <svg/);
    expect(b).toContain('aria-label="BBBB"');
  });
});

describe('buildContext', () => {
  it('turns an accreditation with its action, group, zones, fields and days into values', () => {
    const params = buildContext({
      accreditation: {
        id: 7,
        customId: 3,
        bc: 'ABCD',
        firstname: 'Anna',
        lastname: 'Nováková',
        email: 'anna@example.com',
        days: ['2027-05-11'],
        customField: [
          { id: 12, value: 'ACME' },
          { id: 13, value: 'm' },
          { id: 14, value: true },
          { id: 15, value: { street: 'Main 1', city: 'Brno', zip: '60200', gps: '' } },
        ],
      },
      action: {
        name: { cs: 'Veletrh', sk: '', en: 'Fair', de: '' },
        days: [
          { id: '2027-05-10', name: { cs: 'Pondělí', en: 'Monday' }, onAccreditation: 'PO' },
          { id: '2027-05-11', name: { cs: 'Úterý', en: '' }, onAccreditation: 'ÚT' },
        ],
      },
      group: { name: 'press', displayName: { cs: 'Tisk', en: 'Press' }, htmlData: '<i>p</i>' },
      zones: [
        { name: 'Hall', onAccreditation: 'H' },
        { name: 'Backstage', onAccreditation: '' },
      ],
      fields: [
        { id: 12, customFieldType: 1 },
        { id: 13, customFieldType: 4, options: [{ id: 'm', value: 'Medium' }] },
        { id: 14, customFieldType: 7 },
        { id: 15, customFieldType: 5 },
      ],
      imageUrl: '/api/file/k',
      smartLink: 'https://x/preview/s/cid/ABCD',
      language: 'en',
    });
    expect(params).toEqual({
      id: 7,
      custom_id: 3,
      bc: 'ABCD',
      firstname: 'Anna',
      lastname: 'Nováková',
      email: 'anna@example.com',
      group: 'Press',
      zones: ['H', 'Backstage'],
      custom_field: { 12: 'ACME', 13: 'Medium', 14: '✓', 15: 'Main 1, Brno, 60200' },
      user_image: '/api/file/k',
      html_data: '<i>p</i>',
      days: [{ id: '2027-05-11', name: 'Úterý', onAccreditation: 'ÚT' }],
      day: 'Úterý',
      d: 'ÚT',
      actionName: 'Fair',
      smartLink: 'https://x/preview/s/cid/ABCD',
      groupNames: ['press'],
      zoneNames: ['Hall', 'Backstage'],
    });
  });

  it('gives a sample for every zone and user field a template names, so a preview shows something', () => {
    const html =
      '{{firstname}} {{zones[3]}} {{custom_field[42]}} {{#each days}}{{name}}{{/each}} {{bc}} {{user_image}}';
    const params = sampleParams(html);
    expect(validateTemplate(html, params)).toEqual({ missing: [], unknown: [], marks: [] });
    expect(renderTemplate(html, params)).toMatch(/^Jan D Value 42 MondayTuesday <svg/);
  });

  it('samples with an action reports what that action lacks', () => {
    const input = sampleInput({
      action: { name: 'Fair', days: [{ id: '2027-01-01', name: 'Day 1', onAccreditation: 'D1' }] },
      zones: [{ name: 'Hall', onAccreditation: 'H' }],
      fields: [{ id: 5, customFieldType: 4, options: [{ id: 'a', value: 'Alpha' }], name: 'size' }],
    });
    const params = buildContext(input);
    expect(params.custom_field).toEqual({ 5: 'Alpha' });
    expect(validateTemplate('{{custom_field[5]}} {{custom_field[6]}} {{zones[1]}}', params).missing).toEqual([
      'custom_field[6]',
      'zones[1]',
    ]);
  });
});

describe('page sizes', () => {
  it('knows the six sizes in mm and writes explicit @page sizes', () => {
    expect(PAGE_SIZES_MM.A6).toEqual({ width: 105, height: 148 });
    expect(PAGE_SIZES_MM['A4-L']).toEqual({ width: 297, height: 210 });
    expect(pageSizeMm('A5-L')).toEqual({ width: 210, height: 148 });
    expect(pageSizeMm('Letter')).toEqual({ width: 105, height: 148 });
    expect(pageCss('A6-L')).toBe('@page { size: 148mm 105mm; margin: 0; }');
  });

  it('puts one badge per page, each size on a named page', () => {
    const doc = printDocument(
      [
        { html: '<p>1</p>', pageSize: 'A6' },
        { html: '<p>2</p>', pageSize: 'A5-L' },
      ],
      { title: 'Badges <1>' },
    );
    expect(doc).toContain('@page { size: 105mm 148mm; margin: 0; }');
    expect(doc).toContain('@page accredo-A5-L { size: 210mm 148mm; margin: 0; }');
    expect(doc).toContain('<div class="accredo-page accredo-page-A6"><p>1</p></div>');
    expect(doc).toContain('<div class="accredo-page accredo-page-A5-L"><p>2</p></div>');
    expect(doc).toContain('<title>Badges &lt;1&gt;</title>');
  });
});

describe('group and zone helpers', () => {
  const press: TemplateParams = { ...person, groupNames: ['Press', 'Crew'], zoneNames: ['Hall', 'Backstage'] };
  const band = '{{#ifGroup "Crew"}}<div class="band">CREW</div>{{else}}<div>guest</div>{{/ifGroup}}';

  it('shows a block only for a person in a group of that name (any of their groups), else the else part', () => {
    expect(renderTemplate(band, press)).toBe('<div class="band">CREW</div>');
    expect(renderTemplate(band, { ...press, groupNames: ['Press'] })).toBe('<div>guest</div>');
    expect(renderTemplate('{{#ifGroup "Press"}}P{{/ifGroup}}|{{#ifGroup "press"}}p{{/ifGroup}}', press)).toBe('P|');
    expect(renderTemplate('{{#ifGroup "Crew"}}C{{/ifGroup}}', { ...press, groupNames: [] })).toBe('');
  });

  it('shows a block only for a person holding a zone of that name, case-sensitive, with else and else-chains', () => {
    const tpl = '{{#ifZone "Backstage"}}B {{firstname}}{{else ifZone "Hall"}}H{{else}}-{{/ifZone}}';
    expect(renderTemplate(tpl, press)).toBe('B Anna');
    expect(renderTemplate(tpl, { ...press, zoneNames: ['Hall'] })).toBe('H');
    expect(renderTemplate(tpl, { ...press, zoneNames: ['backstage'] })).toBe('-');
  });

  it('works inside loops (the names are the person’s, not the loop entry’s) and escapes inside', () => {
    const tpl = '{{#each days}}{{#ifGroup "Crew"}}{{name}}{{/ifGroup}}{{/each}}';
    expect(renderTemplate(tpl, { ...press, days: [{ id: '1', name: '<b>x</b>', onAccreditation: 'X' }] })).toBe(
      '&lt;b&gt;x&lt;/b&gt;',
    );
  });

  it('falls back to the single group and the zones of older params', () => {
    expect(renderTemplate('{{#ifGroup "Press"}}P{{/ifGroup}}{{#ifZone "A"}}A{{/ifZone}}', person)).toBe('PA');
  });

  it('takes group and zone names from buildContext: every group of the person, zone names not their short texts', () => {
    const params = buildContext({
      accreditation: { id: 1, customId: 1, bc: 'X', firstname: 'A', lastname: 'B', email: 'a@b.cz' },
      group: { name: 'Press', displayName: { cs: 'Tisk' } },
      groups: [{ name: 'Press' }, { name: 'Crew' }],
      zones: [{ name: 'Backstage', onAccreditation: 'BS' }],
    });
    expect(params.groupNames).toEqual(['Press', 'Crew']);
    expect(params.zoneNames).toEqual(['Backstage']);
    expect(renderTemplate(`${band}{{#ifZone "Backstage"}}Z{{/ifZone}}{{#ifZone "BS"}}no{{/ifZone}}`, params)).toBe(
      '<div class="band">CREW</div>Z',
    );
  });

  it('is checked: a block with one quoted name, closed; the placeholders inside are checked too', () => {
    expect(validateTemplate('{{#ifGroup "Crew"}}{{nickname}}{{else}}{{lastname}}{{/ifGroup}}', press)).toMatchObject({
      missing: [],
      unknown: ['nickname'],
    });
    for (const [tpl, reason] of [
      ['{{#ifGroup}}x{{/ifGroup}}', /ifGroup takes one name in quotes/],
      ['{{#ifGroup Crew}}x{{/ifGroup}}', /ifGroup takes one name in quotes/],
      ['{{#ifZone "A" "B"}}x{{/ifZone}}', /ifZone takes one name in quotes/],
      ['{{#ifZone "A" x=1}}x{{/ifZone}}', /ifZone takes one name in quotes/],
      ['{{ifGroup "Crew"}}', /ifGroup is a block/],
      ['{{firstname (ifZone "A")}}', /ifZone is a block/],
      ['<p>\n  {{#ifGroup "Crew"}}x', /line 2: a block \(\{\{#ifGroup\}\}\) is not closed with \{\{\/ifGroup\}\}/],
      ['{{#ifGroup "Crew"}}x{{/ifZone}}', /\{\{#ifGroup\}\} is closed with \{\{\/ifZone\}\}/],
    ] as const) {
      expect(() => validateTemplate(tpl, press), tpl).toThrow(reason);
      expect(() => compileTemplate(tpl), tpl).toThrow(TemplateError);
    }
  });
});

describe('positions', () => {
  const failure = (tpl: string) => {
    try {
      validateTemplate(tpl, person);
    } catch (error) {
      return error as TemplateError;
    }
    throw new Error('no error');
  };

  it('gives the line and column of a broken placeholder, as the admin wrote it (indexes normalized away)', () => {
    expect(failure('<p>\n  {{zones[0]}} {{firstname}')).toMatchObject({ line: 2, column: 27 });
    expect(failure('{{firstname}')).toMatchObject({ line: 1, column: 12 });
    const e = failure('<p>\n\n  <b>{{#each days}}{{name}}</b>\n</p>');
    expect(e).toMatchObject({ line: 3, column: 6 });
    expect(e.message).toMatch(/^Template error on line 3: a block \(\{\{#each\}\}\) is not closed/);
  });

  it('gives the line and column of a misused helper, a partial and a mismatched close', () => {
    expect(failure('ab\n {{custom_field[12]}} {{#ifGroup x}}{{/ifGroup}}')).toMatchObject({ line: 2, column: 26 });
    expect(failure('x {{> badge}}')).toMatchObject({ line: 1, column: 3 });
    expect(failure('x\n{{#if a}}{{/each}}').line).toBe(2);
  });

  it('refuses a pathological shape at the offending placeholder', () => {
    expect(failure(`a\n{{${'x'.repeat(2_100)}}}`)).toMatchObject({ line: 2, column: 1 });
  });

  it('marks where each missing and unknown placeholder is first written', () => {
    const check = validateTemplate('<p>{{firstname}}</p>\n<p>{{zones[0]}} {{zones[7]}} {{nickname}} {{nickname}}</p>', {
      ...person,
      firstname: '',
    });
    expect(check.marks).toEqual([
      { name: 'firstname', problem: 'missing', line: 1, column: 6 },
      { name: 'zones[7]', problem: 'missing', line: 2, column: 19 },
      { name: 'nickname', problem: 'unknown', line: 2, column: 32 },
    ]);
  });
});
