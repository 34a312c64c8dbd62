import cs from './locales/cs.json' with { type: 'json' };
import de from './locales/de.json' with { type: 'json' };
import en from './locales/en.json' with { type: 'json' };
import sk from './locales/sk.json' with { type: 'json' };
import action_cs from './locales/action/cs.json' with { type: 'json' };
import action_sk from './locales/action/sk.json' with { type: 'json' };
import action_en from './locales/action/en.json' with { type: 'json' };
import action_de from './locales/action/de.json' with { type: 'json' };
import custom_field_cs from './locales/custom-field/cs.json' with { type: 'json' };
import custom_field_sk from './locales/custom-field/sk.json' with { type: 'json' };
import custom_field_en from './locales/custom-field/en.json' with { type: 'json' };
import custom_field_de from './locales/custom-field/de.json' with { type: 'json' };
import groups_cs from './locales/groups/cs.json' with { type: 'json' };
import groups_sk from './locales/groups/sk.json' with { type: 'json' };
import groups_en from './locales/groups/en.json' with { type: 'json' };
import groups_de from './locales/groups/de.json' with { type: 'json' };
import zone_cs from './locales/zone/cs.json' with { type: 'json' };
import zone_sk from './locales/zone/sk.json' with { type: 'json' };
import zone_en from './locales/zone/en.json' with { type: 'json' };
import zone_de from './locales/zone/de.json' with { type: 'json' };
import template_cs from './locales/template/cs.json' with { type: 'json' };
import template_sk from './locales/template/sk.json' with { type: 'json' };
import template_en from './locales/template/en.json' with { type: 'json' };
import template_de from './locales/template/de.json' with { type: 'json' };
import gallery_cs from './locales/gallery/cs.json' with { type: 'json' };
import accreditation_cs from './locales/accreditation/cs.json' with { type: 'json' };
import accreditation_detail_cs from './locales/accreditation-detail/cs.json' with { type: 'json' };
import accreditation_import_cs from './locales/accreditation-import/cs.json' with { type: 'json' };
import gallery_sk from './locales/gallery/sk.json' with { type: 'json' };
import accreditation_sk from './locales/accreditation/sk.json' with { type: 'json' };
import accreditation_detail_sk from './locales/accreditation-detail/sk.json' with { type: 'json' };
import accreditation_import_sk from './locales/accreditation-import/sk.json' with { type: 'json' };
import gallery_en from './locales/gallery/en.json' with { type: 'json' };
import accreditation_en from './locales/accreditation/en.json' with { type: 'json' };
import accreditation_detail_en from './locales/accreditation-detail/en.json' with { type: 'json' };
import accreditation_import_en from './locales/accreditation-import/en.json' with { type: 'json' };
import gallery_de from './locales/gallery/de.json' with { type: 'json' };
import accreditation_de from './locales/accreditation/de.json' with { type: 'json' };
import accreditation_detail_de from './locales/accreditation-detail/de.json' with { type: 'json' };
import accreditation_import_de from './locales/accreditation-import/de.json' with { type: 'json' };
import web_channel_rules_cs from './locales/web-channel-rules/cs.json' with { type: 'json' };
import web_channel_rules_sk from './locales/web-channel-rules/sk.json' with { type: 'json' };
import web_channel_rules_en from './locales/web-channel-rules/en.json' with { type: 'json' };
import web_channel_rules_de from './locales/web-channel-rules/de.json' with { type: 'json' };
import web_channel_cs from './locales/web-channel/cs.json' with { type: 'json' };
import web_channel_sk from './locales/web-channel/sk.json' with { type: 'json' };
import web_channel_en from './locales/web-channel/en.json' with { type: 'json' };
import web_channel_de from './locales/web-channel/de.json' with { type: 'json' };
import online_cs from './locales/online/cs.json' with { type: 'json' };
import online_sk from './locales/online/sk.json' with { type: 'json' };
import online_en from './locales/online/en.json' with { type: 'json' };
import online_de from './locales/online/de.json' with { type: 'json' };
import accreditation_history_cs from './locales/accreditation-history/cs.json' with { type: 'json' };
import accreditation_history_sk from './locales/accreditation-history/sk.json' with { type: 'json' };
import accreditation_history_en from './locales/accreditation-history/en.json' with { type: 'json' };
import accreditation_history_de from './locales/accreditation-history/de.json' with { type: 'json' };
import capture_cs from './locales/capture/cs.json' with { type: 'json' };
import capture_sk from './locales/capture/sk.json' with { type: 'json' };
import capture_en from './locales/capture/en.json' with { type: 'json' };
import capture_de from './locales/capture/de.json' with { type: 'json' };
import template_engine_cs from './locales/template-engine/cs.json' with { type: 'json' };
import template_engine_sk from './locales/template-engine/sk.json' with { type: 'json' };
import template_engine_en from './locales/template-engine/en.json' with { type: 'json' };
import template_engine_de from './locales/template-engine/de.json' with { type: 'json' };
import badge_editor_cs from './locales/badge-editor/cs.json' with { type: 'json' };
import badge_editor_sk from './locales/badge-editor/sk.json' with { type: 'json' };
import badge_editor_en from './locales/badge-editor/en.json' with { type: 'json' };
import badge_editor_de from './locales/badge-editor/de.json' with { type: 'json' };
import mail_cs from './locales/mail/cs.json' with { type: 'json' };
import mail_sk from './locales/mail/sk.json' with { type: 'json' };
import mail_en from './locales/mail/en.json' with { type: 'json' };
import mail_de from './locales/mail/de.json' with { type: 'json' };
import access_cs from './locales/access/cs.json' with { type: 'json' };
import access_sk from './locales/access/sk.json' with { type: 'json' };
import access_en from './locales/access/en.json' with { type: 'json' };
import access_de from './locales/access/de.json' with { type: 'json' };
import device_cs from './locales/device/cs.json' with { type: 'json' };
import device_sk from './locales/device/sk.json' with { type: 'json' };
import device_en from './locales/device/en.json' with { type: 'json' };
import device_de from './locales/device/de.json' with { type: 'json' };
import gate_cs from './locales/gate/cs.json' with { type: 'json' };
import gate_sk from './locales/gate/sk.json' with { type: 'json' };
import gate_en from './locales/gate/en.json' with { type: 'json' };
import gate_de from './locales/gate/de.json' with { type: 'json' };
import extension_screens_cs from './locales/extension-screens/cs.json' with { type: 'json' };
import extension_screens_sk from './locales/extension-screens/sk.json' with { type: 'json' };
import extension_screens_en from './locales/extension-screens/en.json' with { type: 'json' };
import extension_screens_de from './locales/extension-screens/de.json' with { type: 'json' };
import preview_cs from './locales/preview/cs.json' with { type: 'json' };
import preview_sk from './locales/preview/sk.json' with { type: 'json' };
import preview_en from './locales/preview/en.json' with { type: 'json' };
import preview_de from './locales/preview/de.json' with { type: 'json' };
import dashboard_cs from './locales/dashboard/cs.json' with { type: 'json' };
import dashboard_sk from './locales/dashboard/sk.json' with { type: 'json' };
import dashboard_en from './locales/dashboard/en.json' with { type: 'json' };
import dashboard_de from './locales/dashboard/de.json' with { type: 'json' };

/** One message catalogue per language (spec §1); Czech is the fallback for every missing key. */
export const LANGUAGES = ['cs', 'sk', 'en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'cs';

type Tree = { [k: string]: string | Tree };

/** Area catalogues (one folder per feature area, the same four files) merged into each language. */
const AREAS: Record<Language, object[]> = {
  cs: [
    action_cs,
    custom_field_cs,
    groups_cs,
    zone_cs,
    template_cs,
    gallery_cs,
    accreditation_cs,
    accreditation_detail_cs,
    accreditation_import_cs,
    accreditation_history_cs,
    capture_cs,
    template_engine_cs,
    badge_editor_cs,
    web_channel_rules_cs,
    web_channel_cs,
    online_cs,
    mail_cs,
    access_cs,
    device_cs,
    gate_cs,
    extension_screens_cs,
    preview_cs,
    dashboard_cs,
  ],
  sk: [
    action_sk,
    custom_field_sk,
    groups_sk,
    zone_sk,
    template_sk,
    gallery_sk,
    accreditation_sk,
    accreditation_detail_sk,
    accreditation_import_sk,
    accreditation_history_sk,
    capture_sk,
    template_engine_sk,
    badge_editor_sk,
    web_channel_rules_sk,
    web_channel_sk,
    online_sk,
    mail_sk,
    access_sk,
    device_sk,
    gate_sk,
    extension_screens_sk,
    preview_sk,
    dashboard_sk,
  ],
  en: [
    action_en,
    custom_field_en,
    groups_en,
    zone_en,
    template_en,
    gallery_en,
    accreditation_en,
    accreditation_detail_en,
    accreditation_import_en,
    accreditation_history_en,
    capture_en,
    template_engine_en,
    badge_editor_en,
    web_channel_rules_en,
    web_channel_en,
    online_en,
    mail_en,
    access_en,
    device_en,
    gate_en,
    extension_screens_en,
    preview_en,
    dashboard_en,
  ],
  de: [
    action_de,
    custom_field_de,
    groups_de,
    zone_de,
    template_de,
    gallery_de,
    accreditation_de,
    accreditation_detail_de,
    accreditation_import_de,
    accreditation_history_de,
    capture_de,
    template_engine_de,
    badge_editor_de,
    web_channel_rules_de,
    web_channel_de,
    online_de,
    mail_de,
    access_de,
    device_de,
    gate_de,
    extension_screens_de,
    preview_de,
    dashboard_de,
  ],
};

function merge(target: Tree, source: Tree): Tree {
  for (const [k, v] of Object.entries(source)) {
    target[k] = v && typeof v === 'object' ? merge((target[k] as Tree) ?? {}, v) : v;
  }
  return target;
}

export type Catalogue = typeof cs;
export const resources = Object.fromEntries(
  LANGUAGES.map((l) => [
    l,
    AREAS[l].reduce<Tree>((acc, area) => merge(acc, area as Tree), merge({}, { cs, sk, en, de }[l] as Tree)),
  ]),
) as Record<Language, Catalogue>;

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The caller's language from an HTTP `Accept-Language` header (`de-AT,de;q=0.9,en;q=0.8`): the
 * supported language of the highest weight (the first of equal weights), else Czech. Reads at most
 * 512 characters and 20 entries of the header, so its size costs nothing.
 */
export function acceptLanguage(header: string | readonly string[] | null | undefined): Language {
  const raw = Array.isArray(header) ? header.join(',') : String(header ?? '');
  let best: Language = FALLBACK_LANGUAGE;
  let bestQ = 0;
  for (const entry of raw.slice(0, 512).split(',', 20)) {
    const [tag = '', ...params] = entry.split(';');
    const lang = tag.trim().split('-')[0].toLowerCase();
    if (!isLanguage(lang)) continue;
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*$/.exec(param);
      if (m) q = Number(m[1]);
    }
    if (q > bestQ) {
      best = lang;
      bestQ = q;
    }
  }
  return best;
}

/**
 * Server-side translation (mails, error messages) with the same `{{name}}` interpolation as
 * i18next in the browser. Falls back to Czech, then to the key itself.
 */
export function translate(
  language: string | null | undefined,
  key: string,
  params: Record<string, unknown> = {},
): string {
  const lang = isLanguage(language) ? language : FALLBACK_LANGUAGE;
  const text = lookup(resources[lang] as Tree, key) ?? lookup(resources[FALLBACK_LANGUAGE] as Tree, key) ?? key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

/** Every key of a catalogue, dotted; used by the parity test and the rights editor. */
export function catalogueKeys(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    v && typeof v === 'object' ? catalogueKeys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}
