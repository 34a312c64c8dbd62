// The one template engine of badges and mails (spec §3 Accreditation template).
export const TEMPLATE_ENGINE = 'handlebars';
