import type { templatePreviewSchema, templateValidateSchema } from '@accredo/domain';
import {
  isTemplateError,
  printDocument,
  renderTemplate,
  sampleParams,
  type TemplateCheck,
  type TemplateParams,
  validateTemplate,
} from '@accredo/templates';
import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import { PdfRenderer } from '../pdf/pdf-renderer.service.js';
import type { AdminAuth } from '../../common/request.js';

type ValidateInput = z.output<typeof templateValidateSchema>;
type PreviewInput = z.output<typeof templatePreviewSchema>;

/** A template error of the engine as the API's error: the code, with the engine's reason, line and column. */
export function templateFailure(error: unknown): never {
  if (isTemplateError(error))
    throw new AppError('TEMPLATE_SYNTAX_ERROR', { reason: error.message, line: error.line, column: error.column });
  throw error;
}

/**
 * The template check and preview (spec §5 Template preview, §7): badge and mail templates, rendered
 * by the one engine of libs/templates with the values sent, or with a sample person when none are.
 */
@Injectable()
export class TemplateEngineService {
  constructor(private readonly pdf: PdfRenderer) {}

  private params(html: string, given: ValidateInput['params'], actor: AdminAuth): TemplateParams {
    if (given) return given as TemplateParams;
    return sampleParams(html, { language: actor.user.language });
  }

  validate(input: ValidateInput, actor: AdminAuth): TemplateCheck {
    try {
      return validateTemplate(input.data, this.params(input.data, input.params, actor));
    } catch (error) {
      return templateFailure(error);
    }
  }

  preview(input: PreviewInput, actor: AdminAuth): { data: string } {
    let html: string;
    try {
      html = renderTemplate(input.data, this.params(input.data, input.params, actor));
    } catch (error) {
      return templateFailure(error);
    }
    if (input.type === 'mail') return { data: html };
    return { data: printDocument(this.pages(html, input), { lang: actor.user.language }) };
  }

  /** The preview of type pdf: the copies on the template's page size, as the PDF file. */
  async previewPdf(input: PreviewInput, actor: AdminAuth): Promise<Buffer> {
    let html: string;
    try {
      html = renderTemplate(input.data, this.params(input.data, input.params, actor));
    } catch (error) {
      return templateFailure(error);
    }
    return this.pdf.render(this.pages(html, input), { lang: actor.user.language });
  }

  private pages(html: string, input: PreviewInput) {
    return Array.from({ length: input.count }, () => ({ html, pageSize: input.pageSize }));
  }
}
