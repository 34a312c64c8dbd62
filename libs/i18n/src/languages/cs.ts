import base from '../locales/cs.json' with { type: 'json' };
import action from '../locales/action/cs.json' with { type: 'json' };
import custom_field from '../locales/custom-field/cs.json' with { type: 'json' };
import groups from '../locales/groups/cs.json' with { type: 'json' };
import zone from '../locales/zone/cs.json' with { type: 'json' };
import template from '../locales/template/cs.json' with { type: 'json' };
import gallery from '../locales/gallery/cs.json' with { type: 'json' };
import accreditation from '../locales/accreditation/cs.json' with { type: 'json' };
import accreditation_detail from '../locales/accreditation-detail/cs.json' with { type: 'json' };
import accreditation_import from '../locales/accreditation-import/cs.json' with { type: 'json' };
import accreditation_history from '../locales/accreditation-history/cs.json' with { type: 'json' };
import capture from '../locales/capture/cs.json' with { type: 'json' };
import template_engine from '../locales/template-engine/cs.json' with { type: 'json' };
import badge_editor from '../locales/badge-editor/cs.json' with { type: 'json' };
import web_channel_rules from '../locales/web-channel-rules/cs.json' with { type: 'json' };
import web_channel from '../locales/web-channel/cs.json' with { type: 'json' };
import online from '../locales/online/cs.json' with { type: 'json' };
import mail from '../locales/mail/cs.json' with { type: 'json' };
import access from '../locales/access/cs.json' with { type: 'json' };
import device from '../locales/device/cs.json' with { type: 'json' };
import gate from '../locales/gate/cs.json' with { type: 'json' };
import extension_screens from '../locales/extension-screens/cs.json' with { type: 'json' };
import preview from '../locales/preview/cs.json' with { type: 'json' };
import dashboard from '../locales/dashboard/cs.json' with { type: 'json' };
import a11y from '../locales/a11y/cs.json' with { type: 'json' };
import { buildCatalogue } from '../merge.js';

/**
 * The Czech catalogue: the base file with every area catalogue merged in. Its own module so the
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
