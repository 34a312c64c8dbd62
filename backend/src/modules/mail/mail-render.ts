import { formatBadgeCode } from '@accredo/access';
import {
  effectiveLanguage,
  FALLBACK_LANGUAGE,
  type Language,
  type MailTranslationLanguage,
  type MailTranslations,
} from '@accredo/domain';
import {
  buildContext,
  type CompiledTemplate,
  compileTemplate,
  escapeHtml,
  sampleParams,
  type TemplateParams,
} from '@accredo/templates';
import { type DataSource, In } from 'typeorm';
import {
  type AccreditationEntity,
  AccreditationGroupEntity,
  AccreditationZoneEntity,
} from '../accreditation/accreditation.entity.js';
import { ActionEntity } from '../action/action.entity.js';
import { CustomFieldEntity } from '../custom-field/custom-field.entity.js';
import { GroupEntity } from '../groups/group.entity.js';
import { ImageEntity } from '../image/image.entity.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import type { MailTemplateEntity } from '../template/template.entity.js';
import { ZoneEntity } from '../zone/zone.entity.js';

/** What `{{bc}}` renders to in a mail before it is replaced (a comment no value can produce: values are escaped). */
const CODE_MARK = '<!--accredo:code-->';

/** The Content-ID of the person's code image in a mail. */
export const CODE_CID = 'accreditation-code@accredo';

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
  /** the code the worker draws as the inline image `cid:` CODE_CID, when the mail shows it */
  attachCode: string | null;
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#x27;': "'",
  '&#39;': "'",
  '&#x60;': '`',
  '&#x3D;': '=',
  '&nbsp;': ' ',
};
const decodeEntities = (s: string) => s.replace(/&(?:amp|lt|gt|quot|nbsp|#x27|#39|#x60|#x3D);/g, (e) => ENTITIES[e]);

/** The plain-text alternative of an HTML body. */
export function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(/<(script|style|head|svg)[^>]*>[\s\S]*?<\/\1>/gi, '')
      .replace(/<a\s[^>]*href="(https?:[^"]+)"[^>]*>([\s\S]*?)<\/a>/gi, (_, href: string, label: string) =>
        label.replace(/<[^>]+>/g, '').trim() === href ? href : `${label} (${href})`,
      )
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<li[^>]*>/gi, '- ')
      .replace(/<\/(p|div|h[1-6]|li|tr|table|ul|ol)>/gi, '\n')
      .replace(/<[^>]+>/g, ''),
  )
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * A mail template made ready to fill in for many people (spec §3 Mail template): the body (`html`)
 * and the subject line (`subjectFrom`) go through the one engine of libs/templates, so every value
 * is HTML-escaped. `{{bc}}` in the body is the person's code as an inline PNG image (mail clients
 * do not show SVG), drawn by the mail worker when the mail is sent (`attachCode`), so queueing
 * thousands of mails draws nothing. In a mail with the accreditation (withAccreditation) the image
 * is added at the end when the body does not place it. The subject line and the plain-text
 * alternative carry the code as text.
 */
export class MailRenderer {
  private readonly body: CompiledTemplate;
  private readonly subject: CompiledTemplate;

  /** Throws the engine's TemplateError when the template cannot be compiled. */
  constructor(
    template: MailText,
    private readonly withAccreditation = template.withAccreditation,
  ) {
    const options = { barcodeHtml: () => CODE_MARK };
    this.body = compileTemplate(template.html, options);
    this.subject = compileTemplate(template.subjectFrom, options);
  }

  /** Throws the engine's TemplateError when this person's values cannot be rendered. */
  render(params: TemplateParams): RenderedMail {
    const code = String(params.bc ?? '');
    const rendered = this.body(params);
    const placed = rendered.includes(CODE_MARK);
    const withImage = Boolean(code) && (placed || this.withAccreditation);
    const img = `<img src="cid:${CODE_CID}" alt="${escapeHtml(code)}" width="200" height="200" style="display:block;width:200px;height:200px">`;
    let html = rendered.replaceAll(CODE_MARK, withImage ? img : '');
    if (withImage && !placed) html = `${html}\n<p>${img}</p>`;
    const asText = (markup: string) => markup.replaceAll(CODE_MARK, escapeHtml(code));
    const subject = decodeEntities(asText(this.subject(params)).replace(/<[^>]+>/g, ''))
      .replace(/\s+/g, ' ')
      .trim();
    return {
      subject,
      html,
      text: htmlToText(asText(rendered)) || code,
      attachCode: withImage ? code : null,
    };
  }
}

/** The text of a mail template in one language: the subject line, the body and whether the badge goes along. */
export type MailText = Pick<MailTemplateEntity, 'html' | 'subjectFrom' | 'withAccreditation'>;

/**
 * The template's text in a person's language (issue 15): that language's subject and body when the
 * template has them, else the Czech ones (the template's own columns, required: the fallback).
 */
export function mailTextIn(template: MailText, translations: MailTranslations, language: Language): MailText {
  const text = language === FALLBACK_LANGUAGE ? undefined : translations[language as MailTranslationLanguage];
  return text
    ? { subjectFrom: text.subjectFrom, html: text.html, withAccreditation: template.withAccreditation }
    : template;
}

/** The language mails to a person are written in: theirs when the subject offers more than Czech. */
export const mailLanguage = (row: Pick<AccreditationEntity, 'language'>, multiLanguage: boolean): Language =>
  effectiveLanguage(row.language, multiLanguage);

/** What a person's mail context reads of their row. */
export type ContextPerson = Pick<
  AccreditationEntity,
  'id' | 'customId' | 'bc' | 'badgeVersion' | 'firstname' | 'lastname' | 'email' | 'days' | 'fieldValues'
>;

/** What a person's mail context reads besides their row. */
export interface ContextData {
  action: Pick<ActionEntity, 'name' | 'days'> | null;
  groups: Pick<GroupEntity, 'id' | 'name' | 'displayName' | 'htmlData'>[];
  zones: Pick<ZoneEntity, 'id' | 'name' | 'onAccreditation'>[];
  imageFileKey: string | null;
  fields: { id: number; customFieldType: number; options: CustomFieldEntity['options'] }[];
  subject: Pick<SubjectEntity, 'key'> | null;
  language: Language;
}

/** The values a mail is filled in with: per accreditation (the engine's buildContext), or a sample. */
export class MailContexts {
  constructor(
    private readonly ds: DataSource,
    private readonly publicUrl: string,
  ) {}

  /** The values of each person, with their action, first group, zones, user fields and photo. */
  /** `language`: the language to write in, when the caller fixed it earlier (a deferred mail, issue 16). */
  async forAccreditations(
    subjectId: number,
    rows: AccreditationEntity[],
    language?: Language,
  ): Promise<Map<number, TemplateParams>> {
    if (!rows.length) return new Map();
    const ids = rows.map((r) => r.id);
    const actionIds = [...new Set(rows.map((r) => r.actionId))];
    const imageIds = [...new Set(rows.map((r) => r.imageId).filter((x): x is number => x !== null))];
    const [actions, groupLinks, zoneLinks, images, subject] = await Promise.all([
      this.ds.getRepository(ActionEntity).find({ where: { subjectId, id: In(actionIds) } }),
      this.ds.getRepository(AccreditationGroupEntity).find({ where: { accreditationId: In(ids) } }),
      this.ds.getRepository(AccreditationZoneEntity).find({ where: { accreditationId: In(ids) } }),
      imageIds.length ? this.ds.getRepository(ImageEntity).find({ where: { subjectId, id: In(imageIds) } }) : [],
      this.ds.getRepository(SubjectEntity).findOneBy({ id: subjectId }),
    ]);
    const fieldIds = [...new Set(actions.flatMap((a) => a.customField.map((f) => f.id)))];
    const groupIds = [...new Set(groupLinks.map((l) => l.groupId))];
    const zoneIds = [...new Set(zoneLinks.map((l) => l.zoneId))];
    const [fields, groups, zones] = await Promise.all([
      fieldIds.length ? this.ds.getRepository(CustomFieldEntity).find({ where: { subjectId, id: In(fieldIds) } }) : [],
      groupIds.length ? this.ds.getRepository(GroupEntity).find({ where: { subjectId, id: In(groupIds) } }) : [],
      zoneIds.length ? this.ds.getRepository(ZoneEntity).find({ where: { subjectId, id: In(zoneIds) } }) : [],
    ]);
    const actionById = new Map(actions.map((a) => [a.id, a]));
    const groupById = new Map(groups.map((g) => [g.id, g]));
    const zoneById = new Map(zones.map((z) => [z.id, z]));
    const imageById = new Map(images.map((i) => [i.id, i]));
    const contextFields = fields.map((f) => ({ id: f.id, customFieldType: f.customFieldType, options: f.options }));

    return new Map(
      rows.map((row) => [
        row.id,
        this.contextOf(row, {
          action: actionById.get(row.actionId) ?? null,
          groups: groupLinks
            .filter((l) => l.accreditationId === row.id)
            .map((l) => groupById.get(l.groupId))
            .filter((g) => g !== undefined),
          zones: zoneLinks
            .filter((l) => l.accreditationId === row.id)
            .map((l) => zoneById.get(l.zoneId))
            .filter((z) => z !== undefined),
          imageFileKey: row.imageId ? (imageById.get(row.imageId)?.fileKey ?? null) : null,
          fields: contextFields,
          subject,
          language: language ?? mailLanguage(row, subject?.multiLanguage ?? false),
        }),
      ]),
    );
  }

  /**
   * One person's values from what was read for them (forAccreditations, and the worker's write of
   * a deferred mail from its kept set-up, issue 16): the same context either way.
   */
  contextOf(row: ContextPerson, data: ContextData): TemplateParams {
    const { action, subject } = data;
    const personGroups = [...data.groups].sort((a, b) => a.id - b.id);
    const group = personGroups[0];
    const personZones = [...data.zones].sort((a, b) => a.id - b.id);
    return buildContext({
      accreditation: {
        id: row.id,
        customId: row.customId,
        // the valid badge's code (docs/access-control.md "Badge versions")
        bc: formatBadgeCode(row.bc, row.badgeVersion),
        firstname: row.firstname,
        lastname: row.lastname,
        email: row.email,
        days: row.days ?? [],
        customField: Object.entries(row.fieldValues ?? {}).map(([id, value]) => ({ id: Number(id), value })),
      },
      action: action ? { name: action.name, days: action.days } : null,
      group: group ? { name: group.name, displayName: group.displayName, htmlData: group.htmlData } : null,
      groups: personGroups.map((g) => ({ name: g.name })),
      zones: personZones.map((z) => ({ name: z.name, onAccreditation: z.onAccreditation })),
      fields: data.fields,
      // the action's, group's and days' names in the person's language, as the mail's text
      language: data.language,
      // a mail is read elsewhere: the photo needs the full address
      imageUrl: data.imageFileKey ? `${this.publicUrl}/api/file/${data.imageFileKey}` : null,
      // the person's preview page, as on the printed badge (print.service.ts)
      smartLink: subject
        ? `${this.publicUrl}/preview/${encodeURIComponent(subject.key)}/cid/${encodeURIComponent(formatBadgeCode(row.bc, row.badgeVersion))}`
        : '',
    });
  }

  /** The engine's sample person, with a value for every zone and user field the template names. */
  sample(html: string, language: string): TemplateParams {
    return sampleParams(html, { language });
  }
}
