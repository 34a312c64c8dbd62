import base from '../locales/de.json' with { type: 'json' };
import action from '../locales/action/de.json' with { type: 'json' };
import custom_field from '../locales/custom-field/de.json' with { type: 'json' };
import groups from '../locales/groups/de.json' with { type: 'json' };
import zone from '../locales/zone/de.json' with { type: 'json' };
import template from '../locales/template/de.json' with { type: 'json' };
import gallery from '../locales/gallery/de.json' with { type: 'json' };
import accreditation from '../locales/accreditation/de.json' with { type: 'json' };
import accreditation_detail from '../locales/accreditation-detail/de.json' with { type: 'json' };
import accreditation_import from '../locales/accreditation-import/de.json' with { type: 'json' };
import accreditation_history from '../locales/accreditation-history/de.json' with { type: 'json' };
import capture from '../locales/capture/de.json' with { type: 'json' };
import template_engine from '../locales/template-engine/de.json' with { type: 'json' };
import badge_editor from '../locales/badge-editor/de.json' with { type: 'json' };
import web_channel_rules from '../locales/web-channel-rules/de.json' with { type: 'json' };
import web_channel from '../locales/web-channel/de.json' with { type: 'json' };
import online from '../locales/online/de.json' with { type: 'json' };
import mail from '../locales/mail/de.json' with { type: 'json' };
import access from '../locales/access/de.json' with { type: 'json' };
import device from '../locales/device/de.json' with { type: 'json' };
import gate from '../locales/gate/de.json' with { type: 'json' };
import extension_screens from '../locales/extension-screens/de.json' with { type: 'json' };
import preview from '../locales/preview/de.json' with { type: 'json' };
import dashboard from '../locales/dashboard/de.json' with { type: 'json' };
import a11y from '../locales/a11y/de.json' with { type: 'json' };
import { buildCatalogue } from '../merge.js';

/**
 * The German catalogue: the base file with every area catalogue merged in. Its own module so the
 * browser loads one language as one chunk (web/src/app/i18n.ts); index.ts imports all four for the server.
 * A new area: add its file to all four language modules in the same place.
 */
export default /* @__PURE__ */ buildCatalogue(base, [
  action,
  custom_field,
  groups,
  zone,
  template,
  gallery,
  accreditation,
  accreditation_detail,
  accreditation_import,
  accreditation_history,
  capture,
  template_engine,
  badge_editor,
  web_channel_rules,
  web_channel,
  online,
  mail,
  access,
  device,
  gate,
  extension_screens,
  preview,
  dashboard,
  a11y,
]);
