import Handlebars from 'handlebars';
import { type BarcodeType, barcodeSvg } from './barcode.js';
import { buildContext, type SampleOptions, sampleInput, type TemplateParams } from './context.js';
import { TemplateError } from './errors.js';
import { escapeHtml } from './escape.js';
import {
  DAY_FIELDS,
  isMembershipHelper,
  isNocheck,
  MEMBERSHIP_HELPERS,
  type MembershipHelper,
  PLACEHOLDER_NAMES,
  stripNocheck,
} from './placeholders.js';

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
  start: { line: number; column: number };
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

/** 1-based line and column of the template as the admin wrote it. */
export interface TemplatePosition {
  line: number;
  column: number;
}

/** The source Handlebars parses, and the way back from its places to the admin's. */
interface Source {
  text: string;
  /** a Handlebars place (1-based line, 0-based column of `text`) as the admin's line and column */
  at(line: number, column: number): TemplatePosition;
  /** an offset of `text` as the admin's line and column */
  fromText(offset: number): TemplatePosition;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * The spec writes `zones[0]` and `custom_field[12]`; Handlebars wants `zones.[0]`. Inside every
 * mustache (outside string literals) `name[12]` and `name.12` become `name.[12]`; both spellings
 * work. Line numbers stay as the admin wrote them; the characters inserted are remembered so a
 * column Handlebars reports is mapped back to the admin's column.
 */
function normalizeSource(html: string): Source {
  /** offsets in the normalized text of the characters inserted, ascending */
  const inserted: number[] = [];
  let delta = 0;
  const text = html.replace(/\{\{(?!!)([\s\S]*?)\}\}/g, (_, inner: string, offset: number) => {
    const base = offset + delta + 2;
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
        inserted.push(base + out.length + indexed[1].length);
        out += `${indexed[1]}.[${indexed[2]}]`;
        i += indexed[0].length;
        continue;
      }
      const dotted = /^\.(\d+)(?![\w$])/.exec(inner.slice(i));
      if (dotted && /[\w$\]]/.test(inner[i - 1] ?? '')) {
        inserted.push(base + out.length + 1, base + out.length + 2 + dotted[1].length);
        out += `.[${dotted[1]}]`;
        i += dotted[0].length;
        continue;
      }
      out += c;
      i++;
    }
    delta += out.length - inner.length;
    return `{{${out}}}`;
  });
  let normalStarts: number[] | undefined;
  let htmlStarts: number[] | undefined;
  // binary searches: the check asks for every placeholder's place (up to TEMPLATE_MAX_TAGS of them)
  const fromText = (offset: number): TemplatePosition => {
    htmlStarts ??= lineStarts(html);
    const original = Math.min(html.length, Math.max(0, offset - countBelow(inserted, offset)));
    const line = countBelow(htmlStarts, original + 1);
    return { line, column: original - htmlStarts[line - 1] + 1 };
  };
  const at = (line: number, column: number): TemplatePosition => {
    normalStarts ??= lineStarts(text);
    return fromText((normalStarts[Math.max(1, Math.min(line, normalStarts.length)) - 1] ?? 0) + Math.max(0, column));
  };
  return { text, at, fromText };
}

/** How many of the ascending numbers are below the value. */
function countBelow(sorted: number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The 1-based line and column of an offset of a text. */
function positionAt(text: string, offset: number): TemplatePosition {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/** Where the innermost block that is never closed opens (for the "not closed" error), if any. */
function unclosedBlock(text: string): { offset: number; name: string } | null {
  const open: { offset: number; name: string }[] = [];
  for (const m of text.matchAll(/\{\{!--[\s\S]*?--\}\}|\{\{![\s\S]*?\}\}|\{\{~?\s*([#^/])~?\s*([^\s}~()]*)/g)) {
    if (!m[1] || !m[2]) continue;
    if (m[1] === '/') open.pop();
    else open.push({ offset: m.index ?? 0, name: m[2] });
  }
  return open.at(-1) ?? null;
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
    const start = m.index ?? 0;
    const refuse = (message: string) => {
      const at = positionAt(html, start);
      return new TemplateError(message, at.line, at.column);
    };
    if (++tags > TEMPLATE_MAX_TAGS) throw refuse(`Template error: more than ${TEMPLATE_MAX_TAGS} placeholders`);
    const comment = /^\{\{~?!/.test(html.slice(start, start + 4));
    if (!comment && html.indexOf('}}', start) - start > TEMPLATE_MAX_TAG_LENGTH)
      throw refuse(`Template error: a placeholder longer than ${TEMPLATE_MAX_TAG_LENGTH} characters`);
    if (m[1] === '/') depth = Math.max(0, depth - 1);
    else if (m[1] && m[2] && m[2] !== '}' && ++depth > TEMPLATE_MAX_DEPTH)
      throw refuse(`Template error: blocks nested more than ${TEMPLATE_MAX_DEPTH} deep`);
  }
}

interface Parsed {
  program: ProgramNode;
  src: Source;
}

function parse(html: string): Parsed {
  checkShape(html);
  const src = normalizeSource(html);
  try {
    return { program: Handlebars.parse(src.text) as unknown as ProgramNode, src };
  } catch (error) {
    throw syntaxError(error, src);
  }
}

/** The lexer Handlebars' parser shares: after a parse error it holds the offending token's place. */
const lexer = (
  Handlebars as unknown as { Parser?: { lexer?: { yylloc?: { first_line: number; first_column: number } } } }
).Parser?.lexer;

/**
 * The engine's words for a Handlebars error, with the line and column in the admin's template:
 * from the error itself (compile errors), the parser's last token (parse errors) or, for a block
 * never closed, the place it opens.
 */
function syntaxError(error: unknown, src?: Source): TemplateError {
  if (error instanceof TemplateError) return error;
  const raw = String((error as Error)?.message ?? error);
  // Handlebars' parse message: "Parse error on line 3:\n<excerpt>\n----^\nExpecting 'ID', got 'EOF'";
  // its compile messages end with " - line:column".
  const line = Number(/on line (\d+)/.exec(raw)?.[1] ?? / - (\d+):\d+$/.exec(raw)?.[1] ?? 0) || null;
  const parts = raw.split('\n').filter((l) => l.trim() && !/^-*\^$/.test(l.trim()));
  const near = parts.length > 2 ? parts[1].trim() : '';
  const reason = parts.length > 1 ? parts.slice(2).join(' ') || parts[1] : raw.replace(/ - \d+:\d+$/, '');
  let hint = reason;
  let where: TemplatePosition | null = null;
  const thrown = error as { lineNumber?: unknown; column?: unknown };
  if (src && typeof thrown?.lineNumber === 'number' && typeof thrown.column === 'number')
    where = src.at(thrown.lineNumber, thrown.column);
  else if (src && /^Parse error/.test(raw) && lexer?.yylloc)
    where = src.at(lexer.yylloc.first_line, lexer.yylloc.first_column);
  const unclosed = src && /got 'EOF'/.test(reason) ? unclosedBlock(src.text) : null;
  const mismatch = /^(\S+) doesn't match (\S+)/.exec(reason);
  if (mismatch) hint = `{{#${mismatch[1]}}} is closed with {{/${mismatch[2]}}}`;
  else if (unclosed && src) {
    where = src.fromText(unclosed.offset);
    hint = `a block ({{#${unclosed.name}}}) is not closed with {{/${unclosed.name}}}`;
  } else if (/got 'EOF'/.test(reason)) hint = 'a block ({{#…}}) is not closed with {{/…}}';
  else if (/got 'INVALID'/.test(reason)) hint = 'a placeholder is not written correctly (check its braces)';
  else if (/unknown helper (\S+)/.test(reason)) hint = `there is no helper ${/unknown helper (\S+)/.exec(reason)?.[1]}`;
  else if (/got '/.test(reason)) hint = `unexpected ${/got '([^']+)'/.exec(reason)?.[1]}`;
  const at = where?.line ?? line;
  const message = `Template error${at ? ` on line ${at}` : ''}: ${hint}${near && !unclosed ? ` (near "${near}")` : ''}`;
  return new TemplateError(message.slice(0, 500), at, where?.column ?? null);
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
  /** 1-based column of the placeholder's name (as the admin wrote it) */
  column: number | null;
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

function walk({ program, src }: Parsed, visit: (p: Placeholder) => void) {
  const where = (loc: Loc | undefined) => (loc ? src.at(loc.start.line, loc.start.column) : null);
  const refuse = (loc: Loc | undefined, reason: string) => {
    const at = where(loc);
    return new TemplateError(
      `Template error${at ? ` on line ${at.line}` : ''}: ${reason}`,
      at?.line ?? null,
      at?.column ?? null,
    );
  };

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
    const at = where(node.loc);
    visit({ name: display(full), path: full, nocheck, line: at?.line ?? null, column: at?.column ?? null });
    return path;
  };

  const expr = (node: ExprNode, stack: Frame[]) => {
    if (node.type === 'PathExpression') report(node, stack);
    else if (node.type === 'SubExpression') call(node, stack);
  };

  const call = (node: CallNode, stack: Frame[]) => {
    const path = node.path;
    if (path.type !== 'PathExpression') return;
    const single = !path.data && path.depth === 0 && path.parts.length === 1 ? path.parts[0] : '';
    const helper = HELPERS.has(single);
    if (isMembershipHelper(single)) {
      const [name, ...more] = node.params;
      const example = `{{#${single} "${single === 'ifGroup' ? 'Press' : 'Backstage'}"}}…{{/${single}}}`;
      if (node.type !== 'BlockStatement') throw refuse(path.loc, `${single} is a block: ${example}`);
      if (name?.type !== 'StringLiteral' || more.length || node.hash?.pairs.length)
        throw refuse(path.loc, `${single} takes one name in quotes: ${example}`);
      return;
    }
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
      const at = where(path.loc);
      visit({
        name: path.original,
        path: [path.original],
        nocheck: false,
        line: at?.line ?? null,
        column: at?.column ?? null,
      });
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
    } else if (name === 'if' || name === 'unless' || isMembershipHelper(name)) {
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
          throw refuse(statement.loc, 'partials ({{> …}}) are not supported');
        case 'DecoratorBlock':
        case 'Decorator':
          throw refuse(statement.loc, 'decorators ({{* …}}) are not supported');
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
  /** where each of them is first written (for the editor's marks); a missing day field has none */
  marks: TemplateMark[];
}

export interface TemplateMark extends TemplatePosition {
  name: string;
  problem: 'missing' | 'unknown';
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
  const missingSet = new Set<string>();
  const unknownSet = new Set<string>();
  const marks: TemplateMark[] = [];
  const values = params as Record<string, unknown>;
  let usesDays = false;
  for (const p of findPlaceholders(html)) {
    if (p.nocheck) continue;
    const note = (set: Set<string>, problem: TemplateMark['problem']) => ({
      add(name: string) {
        if (set.has(name)) return;
        set.add(name);
        if (p.line !== null) marks.push({ name, problem, line: p.line, column: p.column ?? 1 });
      },
    });
    const missing = note(missingSet, 'missing');
    const unknown = note(unknownSet, 'unknown');
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
      for (const field of DAY_FIELDS) if (empty(day?.[field])) missingSet.add(`days[${i}].${field}`);
    });
  }
  return { missing: [...missingSet], unknown: [...unknownSet], marks };
}

// ---- rendering ----

const env = Handlebars.create();
env.unregisterHelper('log');

/** The names a membership helper looks in: the params' list, or the single group/zones of older callers. */
function membershipNames(root: TemplateParams, helper: MembershipHelper): string[] {
  if (helper === 'ifGroup') return root.groupNames ?? (root.group ? [root.group] : []);
  return root.zoneNames ?? root.zones ?? [];
}

for (const helper of Object.keys(MEMBERSHIP_HELPERS) as MembershipHelper[]) {
  env.registerHelper(helper, function (this: unknown, name: unknown, options: Handlebars.HelperOptions) {
    const root = (options.data?.root ?? {}) as TemplateParams;
    const names = membershipNames(root, helper);
    return Array.isArray(names) && names.includes(String(name)) ? options.fn(this) : options.inverse(this);
  });
}

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
  const parsed = parse(html);
  const { program, src } = parsed;
  walk(parsed, () => undefined); // refuses partials, decorators and misused helpers
  harden(program);
  let compiled: HandlebarsTemplateDelegate;
  try {
    compiled = env.compile(program as unknown as hbs.AST.Program, {
      knownHelpers: {
        if: true,
        unless: true,
        each: true,
        with: true,
        lookup: true,
        log: false,
        ifGroup: true,
        ifZone: true,
      },
      knownHelpersOnly: true,
      preventIndent: true,
      strict: false,
    });
  } catch (error) {
    throw syntaxError(error, src);
  }
  return (params) => {
    try {
      return compiled(renderContext(params, options), {
        allowProtoPropertiesByDefault: false,
        allowProtoMethodsByDefault: false,
      });
    } catch (error) {
      throw syntaxError(error, src);
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
