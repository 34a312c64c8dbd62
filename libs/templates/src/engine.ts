import Handlebars from 'handlebars';
import { type BarcodeType, barcodeSvg } from './barcode.js';
import { buildContext, type SampleOptions, sampleInput, type TemplateParams } from './context.js';
import { TemplateError } from './errors.js';
import { escapeHtml } from './escape.js';
import { DAY_FIELDS, isNocheck, PLACEHOLDER_NAMES, stripNocheck } from './placeholders.js';

/*
 * The one template engine of badges and mails: Handlebars in an environment of its own, with only
 * the built-in helpers if, unless, each, with and lookup, no partials and no decorators.
 *
 * Escaping rule: every value is HTML-escaped on output, `{{{triple}}}` included (the engine turns
 * every mustache into an escaping one), because names, e-mails and user-field values come from the
 * people who registered. Only three values are inserted as markup, each a Handlebars SafeString
 * the engine builds itself: `bc` (the barcode SVG it draws), `user_image` (an img tag whose URL
 * it escapes and whose scheme it checks) and `html_data` (the group's HTML, written by an admin,
 * as the template itself is).
 */

// ---- parsing ----

interface Loc {
  start: { line: number };
}
interface PathNode {
  type: 'PathExpression';
  data: boolean;
  depth: number;
  parts: string[];
  original: string;
  loc?: Loc;
}
interface LiteralNode {
  type: 'StringLiteral' | 'NumberLiteral' | 'BooleanLiteral' | 'UndefinedLiteral' | 'NullLiteral';
  value: unknown;
  original: unknown;
}
interface HashNode {
  pairs: { key: string; value: ExprNode }[];
}
interface CallNode {
  type: 'MustacheStatement' | 'SubExpression' | 'BlockStatement';
  path: PathNode | LiteralNode;
  params: ExprNode[];
  hash?: HashNode;
  escaped?: boolean;
  program?: ProgramNode | null;
  inverse?: ProgramNode | null;
  loc?: Loc;
}
type ExprNode = PathNode | LiteralNode | CallNode;
interface ProgramNode {
  type: 'Program';
  body: { type: string; loc?: Loc }[];
  blockParams?: string[];
}

const HELPERS = new Set(['if', 'unless', 'each', 'with', 'lookup']);

/**
 * The spec writes `zones[0]` and `custom_field[12]`; Handlebars wants `zones.[0]`. Inside every
 * mustache (outside string literals) `name[12]` and `name.12` become `name.[12]`; both spellings
 * work. Line numbers stay as the admin wrote them.
 */
function normalizeSource(html: string): string {
  return html.replace(/\{\{(?!!)([\s\S]*?)\}\}/g, (_, inner: string) => {
    let out = '';
    let quote: string | null = null;
    let i = 0;
    while (i < inner.length) {
      const c = inner[i];
      if (quote) {
        out += c;
        if (c === quote) quote = null;
        i++;
        continue;
      }
      if (c === '"' || c === "'") {
        quote = c;
        out += c;
        i++;
        continue;
      }
      const indexed = /^([A-Za-z_$][\w$]*)\[(\d+)\]/.exec(inner.slice(i));
      if (indexed && !/[\w$]/.test(inner[i - 1] ?? '')) {
        out += `${indexed[1]}.[${indexed[2]}]`;
        i += indexed[0].length;
        continue;
      }
      const dotted = /^\.(\d+)(?![\w$])/.exec(inner.slice(i));
      if (dotted && /[\w$\]]/.test(inner[i - 1] ?? '')) {
        out += `.[${dotted[1]}]`;
        i += dotted[0].length;
        continue;
      }
      out += c;
      i++;
    }
    return `{{${out}}}`;
  });
}

/** Bounds of a template's shape: past them Handlebars and the walk below take seconds or overflow. */
export const TEMPLATE_MAX_TAGS = 5_000;
export const TEMPLATE_MAX_DEPTH = 50;
export const TEMPLATE_MAX_TAG_LENGTH = 2_000;

/**
 * One linear pass before the parser: a template of more than TEMPLATE_MAX_TAGS placeholders, one
 * (not a comment) longer than TEMPLATE_MAX_TAG_LENGTH or blocks nested deeper than
 * TEMPLATE_MAX_DEPTH is refused, so a 500 kB template cannot hold the server for seconds (compile
 * and check grow faster than linearly with nesting and path length) or overflow the stack.
 */
function checkShape(html: string) {
  let tags = 0;
  let depth = 0;
  for (const m of html.matchAll(/\{\{\{?~?\s*([#^/]?)(\S?)/g)) {
    if (++tags > TEMPLATE_MAX_TAGS)
      throw new TemplateError(`Template error: more than ${TEMPLATE_MAX_TAGS} placeholders`, null);
    const start = m.index ?? 0;
    const comment = /^\{\{~?!/.test(html.slice(start, start + 4));
    if (!comment && html.indexOf('}}', start) - start > TEMPLATE_MAX_TAG_LENGTH)
      throw new TemplateError(`Template error: a placeholder longer than ${TEMPLATE_MAX_TAG_LENGTH} characters`, null);
    if (m[1] === '/') depth = Math.max(0, depth - 1);
    else if (m[1] && m[2] && m[2] !== '}' && ++depth > TEMPLATE_MAX_DEPTH)
      throw new TemplateError(`Template error: blocks nested more than ${TEMPLATE_MAX_DEPTH} deep`, null);
  }
}

function parse(html: string): ProgramNode {
  checkShape(html);
  try {
    return Handlebars.parse(normalizeSource(html)) as unknown as ProgramNode;
  } catch (error) {
    throw syntaxError(error);
  }
}

function syntaxError(error: unknown): TemplateError {
  if (error instanceof TemplateError) return error;
  const raw = String((error as Error)?.message ?? error);
  // Handlebars' parse message: "Parse error on line 3:\n<excerpt>\n----^\nExpecting 'ID', got 'EOF'";
  // its compile messages end with " - line:column".
  const line = Number(/on line (\d+)/.exec(raw)?.[1] ?? / - (\d+):\d+$/.exec(raw)?.[1] ?? 0) || null;
  const parts = raw.split('\n').filter((l) => l.trim() && !/^-*\^$/.test(l.trim()));
  const near = parts.length > 2 ? parts[1].trim() : '';
  const reason = parts.length > 1 ? parts.slice(2).join(' ') || parts[1] : raw.replace(/ - \d+:\d+$/, '');
  let hint = reason;
  const mismatch = /^(\S+) doesn't match (\S+)/.exec(reason);
  if (mismatch) hint = `{{#${mismatch[1]}}} is closed with {{/${mismatch[2]}}}`;
  else if (/got 'EOF'/.test(reason)) hint = 'a block ({{#…}}) is not closed with {{/…}}';
  else if (/got 'INVALID'/.test(reason)) hint = 'a placeholder is not written correctly (check its braces)';
  else if (/unknown helper (\S+)/.test(reason)) hint = `there is no helper ${/unknown helper (\S+)/.exec(reason)?.[1]}`;
  else if (/got '/.test(reason)) hint = `unexpected ${/got '([^']+)'/.exec(reason)?.[1]}`;
  const message = `Template error${line ? ` on line ${line}` : ''}: ${hint}${near ? ` (near "${near}")` : ''}`;
  return new TemplateError(message.slice(0, 500), line);
}

// ---- walking: every placeholder with its place in the scopes ----

/** A place in the template values: ['zones', '0'], ['days', '*', 'name'] ('*' is any entry). */
type AbsPath = string[];

interface Frame {
  /** what `this` is here, as a path from the root; null where the engine cannot tell */
  base: AbsPath | null;
  blockParams: Map<string, AbsPath | null>;
}

export interface Placeholder {
  /** as reported: `firstname`, `zones[0]`, `custom_field[12]`, `days[].name` */
  name: string;
  /** the path from the root of the values ('*' is any entry of a list) */
  path: string[];
  /** ends with nocheck: never reported by the check */
  nocheck: boolean;
  line: number | null;
}

function display(path: AbsPath): string {
  return path
    .map((seg, i) => {
      if (i === 0) return seg;
      if (seg === '*') return '[]';
      return /^\d+$/.test(seg) ? `[${seg}]` : `.${seg}`;
    })
    .join('');
}

function walk(program: ProgramNode, visit: (p: Placeholder) => void) {
  const resolve = (node: PathNode, stack: Frame[]): { path: AbsPath | null; nocheck: boolean } => {
    const nocheck = node.parts.some(isNocheck);
    const parts = node.parts.map(stripNocheck);
    if (node.data) return { path: parts[0] === 'root' ? parts.slice(1) : null, nocheck };
    if (node.depth === 0 && parts.length) {
      for (let i = stack.length - 1; i >= 0; i--) {
        if (stack[i].blockParams.has(parts[0])) {
          const bp = stack[i].blockParams.get(parts[0]) ?? null;
          return { path: bp ? [...bp, ...parts.slice(1)] : null, nocheck };
        }
      }
    }
    const frame = stack[Math.max(0, stack.length - 1 - node.depth)];
    return { path: frame.base ? [...frame.base, ...parts] : null, nocheck };
  };

  const report = (node: PathNode, stack: Frame[], extra: string[] = []) => {
    const { path, nocheck } = resolve(node, stack);
    if (!path || path.length + extra.length === 0) return path;
    const full = [...path, ...extra];
    visit({ name: display(full), path: full, nocheck, line: node.loc?.start.line ?? null });
    return path;
  };

  const expr = (node: ExprNode, stack: Frame[]) => {
    if (node.type === 'PathExpression') report(node, stack);
    else if (node.type === 'SubExpression') call(node, stack);
  };

  const call = (node: CallNode, stack: Frame[]) => {
    const path = node.path;
    if (path.type !== 'PathExpression') return;
    const helper = !path.data && path.depth === 0 && path.parts.length === 1 && HELPERS.has(path.parts[0]);
    if (helper && path.parts[0] === 'lookup' && node.params[0]?.type === 'PathExpression') {
      const key = node.params[1];
      if (key && (key.type === 'NumberLiteral' || key.type === 'StringLiteral')) {
        report(node.params[0], stack, [String(key.value)]);
        for (const p of node.params.slice(2)) expr(p, stack);
      } else for (const p of node.params) expr(p, stack);
    } else if (helper) {
      for (const p of node.params) expr(p, stack);
    } else if (node.params.length || node.hash?.pairs.length) {
      // an unknown helper: reported as not found (rendering refuses it)
      visit({ name: path.original, path: [path.original], nocheck: false, line: path.loc?.start.line ?? null });
      for (const p of node.params) expr(p, stack);
    } else if (node.type !== 'BlockStatement') {
      report(path, stack);
    }
    for (const pair of node.hash?.pairs ?? []) expr(pair.value, stack);
  };

  const block = (node: CallNode, stack: Frame[]) => {
    call(node, stack);
    const path = node.path as PathNode;
    const name = path.parts.length === 1 && !path.data && path.depth === 0 ? path.parts[0] : '';
    const inner = (program: ProgramNode | null | undefined, base: AbsPath | null, item: boolean) => {
      if (!program) return;
      const blockParams = new Map<string, AbsPath | null>();
      const [itemName, indexName] = program.blockParams ?? [];
      if (itemName) blockParams.set(itemName, item ? base : null);
      if (indexName) blockParams.set(indexName, null);
      statements(program, [...stack, { base, blockParams }]);
    };
    const target = (): AbsPath | null => {
      const first = node.params[0];
      if (first?.type !== 'PathExpression') return null;
      return resolve(first, stack).path;
    };
    if (name === 'each') {
      const of = target();
      inner(node.program, of ? [...of, '*'] : null, true);
      if (node.inverse) statements(node.inverse, stack);
    } else if (name === 'with') {
      const of = target();
      inner(node.program, of, true);
      if (node.inverse) statements(node.inverse, stack);
    } else if (name === 'if' || name === 'unless') {
      if (node.program) statements(node.program, stack);
      if (node.inverse) statements(node.inverse, stack);
    } else {
      // {{#days}}…{{/days}}: a section over a value (a list is walked like #each)
      const of = report(path, stack);
      inner(node.program, of ? [...of, '*'] : null, true);
      if (node.inverse) statements(node.inverse, stack);
    }
  };

  const statements = (program: ProgramNode, stack: Frame[]) => {
    for (const statement of program.body) {
      switch (statement.type) {
        case 'MustacheStatement':
          call(statement as CallNode, stack);
          break;
        case 'BlockStatement':
          block(statement as CallNode, stack);
          break;
        case 'PartialStatement':
        case 'PartialBlockStatement':
          throw new TemplateError(
            `Template error on line ${statement.loc?.start.line ?? '?'}: partials ({{> …}}) are not supported`,
            statement.loc?.start.line ?? null,
          );
        case 'DecoratorBlock':
        case 'Decorator':
          throw new TemplateError(
            `Template error on line ${statement.loc?.start.line ?? '?'}: decorators ({{* …}}) are not supported`,
            statement.loc?.start.line ?? null,
          );
        default:
          break;
      }
    }
  };

  statements(program, [{ base: [], blockParams: new Map() }]);
}

/**
 * Every placeholder of a template, once each, in order of appearance: paths inside loops are
 * resolved to the list they walk (`{{#each days}}{{name}}{{/each}}` gives `days` and `days[].name`).
 * Throws a TemplateError on a syntax error.
 */
export function findPlaceholders(html: string): Placeholder[] {
  const seen = new Map<string, Placeholder>();
  walk(parse(html), (p) => {
    const key = `${p.nocheck ? '!' : ''}${p.name}`;
    if (!seen.has(key)) seen.set(key, p);
  });
  return [...seen.values()];
}

export interface TemplateCheck {
  /** placeholders the template uses that have no value in the params */
  missing: string[];
  /** placeholders the engine does not know (not found) */
  unknown: string[];
}

const empty = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0) || Number.isNaN(v);

/**
 * The check of spec §5 Template preview: every placeholder found needs a value in `params`; the
 * entries of `days` need id, name and onAccreditation; placeholders the engine does not know are
 * listed as not found. Placeholders ending with nocheck are skipped. Throws a TemplateError on a
 * syntax error.
 */
export function validateTemplate(html: string, params: TemplateParams): TemplateCheck {
  const missing = new Set<string>();
  const unknown = new Set<string>();
  const values = params as Record<string, unknown>;
  let usesDays = false;
  for (const p of findPlaceholders(html)) {
    if (p.nocheck) continue;
    const [head, ...rest] = p.path;
    if (!PLACEHOLDER_NAMES.has(head)) {
      unknown.add(p.name);
      continue;
    }
    const value = values[head];
    if (head === 'days') {
      usesDays = true;
      const [index, field, ...deeper] = rest;
      if (deeper.length || (field !== undefined && !(DAY_FIELDS as readonly string[]).includes(field)))
        unknown.add(p.name);
      else if (index === undefined || index === '*') {
        if (empty(value)) missing.add('days');
      } else {
        const entry = Array.isArray(value) ? (value[Number(index)] as Record<string, unknown> | undefined) : undefined;
        if (!entry || (field !== undefined && empty(entry[field]))) missing.add(p.name);
      }
    } else if (head === 'zones' || head === 'custom_field') {
      const [index, ...deeper] = rest;
      if (deeper.length || (head === 'zones' && index !== undefined && index !== '*' && !/^\d+$/.test(index)))
        unknown.add(p.name);
      else if (index === undefined || index === '*') {
        if (empty(value)) missing.add(head);
      } else if (empty((value as Record<string, unknown> | undefined)?.[index])) missing.add(p.name);
    } else if (rest.length) {
      unknown.add(p.name);
    } else if (empty(value)) {
      missing.add(head);
    }
  }
  if (usesDays && Array.isArray(values.days)) {
    (values.days as Record<string, unknown>[]).forEach((day, i) => {
      for (const field of DAY_FIELDS) if (empty(day?.[field])) missing.add(`days[${i}].${field}`);
    });
  }
  return { missing: [...missing], unknown: [...unknown] };
}

// ---- rendering ----

const env = Handlebars.create();
env.unregisterHelper('log');

/** Strips the nocheck suffixes and makes every mustache an escaping one (see the rule above). */
function harden(program: ProgramNode) {
  const path = (node: ExprNode | undefined) => {
    if (!node) return;
    if (node.type === 'PathExpression') {
      if (node.parts.some(isNocheck)) {
        node.parts = node.parts.map(stripNocheck);
        node.original = node.original
          .split('.')
          .map((s) => stripNocheck(s))
          .join('.');
      }
    } else if (node.type === 'SubExpression') callNode(node);
  };
  const callNode = (node: CallNode) => {
    path(node.path);
    node.params.forEach(path);
    for (const pair of node.hash?.pairs ?? []) path(pair.value);
  };
  const visit = (p: ProgramNode) => {
    for (const s of p.body) {
      if (s.type === 'MustacheStatement') {
        const m = s as CallNode;
        m.escaped = true;
        callNode(m);
      } else if (s.type === 'BlockStatement') {
        const b = s as CallNode;
        callNode(b);
        if (b.program) visit(b.program);
        if (b.inverse) visit(b.inverse);
      }
    }
  };
  visit(program);
}

const SAFE_URL = /^(https?:\/\/|\/(?!\/)|data:image\/(png|jpe?g|gif|webp|svg\+xml)[;,])/i;

export interface RenderOptions {
  /** the symbology of `bc`: QR by default */
  barcodeType?: BarcodeType;
  /**
   * the markup `{{bc}}` stands for instead of the drawn code (a mail places its code as an inline
   * image drawn when it is sent, so nothing is drawn while the mails are queued)
   */
  barcodeHtml?: (bc: string) => string;
}

/**
 * The values as Handlebars sees them: the markup placeholders become SafeStrings made here (the
 * barcode only when the template uses it, drawn once).
 */
function renderContext(params: TemplateParams, options: RenderOptions): Record<string, unknown> {
  const context: Record<string, unknown> = { ...params };
  let barcode: InstanceType<typeof Handlebars.SafeString> | undefined;
  Object.defineProperty(context, 'bc', {
    enumerable: true,
    get() {
      if (!params.bc) return '';
      barcode ??= new Handlebars.SafeString(
        options.barcodeHtml
          ? options.barcodeHtml(String(params.bc))
          : barcodeSvg(String(params.bc), options.barcodeType ?? 'qrcode'),
      );
      return barcode;
    },
  });
  const url = String(params.user_image ?? '').trim();
  context.user_image = SAFE_URL.test(url)
    ? new Handlebars.SafeString(`<img class="user-image" src="${escapeHtml(url)}" alt="">`)
    : '';
  context.html_data = new Handlebars.SafeString(String(params.html_data ?? ''));
  return context;
}

export type CompiledTemplate = (params: TemplateParams) => string;

/** Parses and checks a template once; the result renders any number of people (the print run). */
export function compileTemplate(html: string, options: RenderOptions = {}): CompiledTemplate {
  const program = parse(html);
  walk(program, () => undefined); // refuses partials and decorators
  harden(program);
  let compiled: HandlebarsTemplateDelegate;
  try {
    compiled = env.compile(program as unknown as hbs.AST.Program, {
      knownHelpers: { if: true, unless: true, each: true, with: true, lookup: true, log: false },
      knownHelpersOnly: true,
      preventIndent: true,
      strict: false,
    });
  } catch (error) {
    throw syntaxError(error);
  }
  return (params) => {
    try {
      return compiled(renderContext(params, options), {
        allowProtoPropertiesByDefault: false,
        allowProtoMethodsByDefault: false,
      });
    } catch (error) {
      throw syntaxError(error);
    }
  };
}

/** Renders a template with the values; throws a TemplateError (never a stack trace) when it cannot. */
export function renderTemplate(html: string, params: TemplateParams, options: RenderOptions = {}): string {
  return compileTemplate(html, options)(params);
}

/**
 * Sample values for a preview of this template: a sample person (see sampleInput) with a value for
 * every zone and user field the template names, unless an action's data is given.
 */
export function sampleParams(html: string, options: Omit<SampleOptions, 'used'> = {}): TemplateParams {
  const zones = new Set<number>();
  const customFields = new Set<string>();
  let placeholders: Placeholder[] = [];
  try {
    placeholders = findPlaceholders(html);
  } catch {
    // a broken template still gets a sample; rendering it reports the error
  }
  for (const p of placeholders) {
    const [head, index] = p.path;
    if (head === 'zones' && /^\d+$/.test(index ?? '')) zones.add(Number(index));
    if (head === 'custom_field' && index && index !== '*') customFields.add(index);
  }
  return buildContext(sampleInput({ ...options, used: { zones: [...zones], customFields: [...customFields] } }));
}
