/**
 * The rights catalogue of spec §6: every page and the actions an admin user can be granted on it.
 * One list, used by the backend guard (@Right), the rights editor and the menu alike.
 * Labels live in the i18n catalogue under `rights.<page>.<action>` and `rightsPage.<page>`.
 */
export const RIGHTS_CATALOGUE = {
  dashboard: ['getDashboardData'],
  user: [
    'getUser',
    'createUser',
    'updateUser',
    'filterUser',
    'getUserPrintData',
    'assignUserToGroups',
    'exportUser',
    'deleteUser',
    'checkUser',
    'assignZone',
    'assignDays',
    'copyUserToAction',
    'goToPreview',
  ],
  emailQueue: ['sendMail'],
  userImport: ['getTemplateToImport', 'importUser'],
  imageImport: ['importImage', 'getImageImport'],
  userCreditTransaction: ['getUserCreditTransaction', 'updateCredit'],
  action: ['get', 'create', 'update', 'delete'],
  actionExtension: [
    'get',
    'active',
    'update',
    'getUserExtension',
    'assignUserExtension',
    'getActionExtensionReport',
    'getGroupsActionExtension',
    'assignGroupsActionExtension',
  ],
  image: ['get', 'create', 'update', 'delete'],
  groups: ['get', 'create', 'update', 'delete'],
  zone: ['get', 'create', 'update', 'delete'],
  customField: ['get', 'create', 'update', 'delete'],
  device: ['getDevice', 'getDeviceKey', 'updateDevice'],
  deviceTemplate: ['get', 'create', 'update'],
  report: ['getReport'],
  subject: ['get', 'update'],
  adminUser: ['get', 'create', 'update', 'getActualAdminUser', 'delete'],
  webChannel: ['get', 'create', 'update', 'exportExternalCode', 'delete'],
  template: ['get', 'create', 'update', 'postValidateTemplate', 'delete'],
  mailTemplate: ['get', 'create', 'update', 'testMailTemplate', 'delete'],
} as const;

export type RightPage = keyof typeof RIGHTS_CATALOGUE;
export type RightAction<P extends RightPage = RightPage> = (typeof RIGHTS_CATALOGUE)[P][number];
/** A page/action pair, e.g. ['adminUser', 'get']. */
export type RightPair = { [P in RightPage]: [P, RightAction<P>] }[RightPage];

/** The wire shape of spec §3: rights.{page}.{action}.is */
export type Rights = Record<string, Record<string, { is: boolean }>>;

export const RIGHT_PAGES = Object.keys(RIGHTS_CATALOGUE) as RightPage[];

export function allRightPairs(): RightPair[] {
  return RIGHT_PAGES.flatMap((page) =>
    (RIGHTS_CATALOGUE[page] as readonly string[]).map((action) => [page, action] as RightPair),
  );
}

/** A full rights map with every pair set to `value`. */
export function buildRights(value: boolean | ((pair: RightPair) => boolean)): Rights {
  const rights: Rights = {};
  for (const pair of allRightPairs()) {
    const [page, action] = pair;
    rights[page] ??= {};
    rights[page][action] = { is: typeof value === 'function' ? value(pair) : value };
  }
  return rights;
}

/**
 * Brings stored or submitted rights to the catalogue's exact shape: unknown pairs are dropped,
 * missing pairs become false. Whatever a client sends, only catalogue pairs are ever kept.
 */
export function normalizeRights(input: unknown): Rights {
  const source = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  return buildRights(([page, action]) => {
    const p = source[page];
    if (!p || typeof p !== 'object') return false;
    const a = (p as Record<string, unknown>)[action];
    return Boolean(a && typeof a === 'object' && (a as { is?: unknown }).is === true);
  });
}

export interface RightsHolder {
  rights?: Rights | null;
  superuser?: boolean;
  manageuser?: boolean;
}

/** The one check of spec §6: superuser and manageuser hold every right, others rights[page][action].is. */
export function hasRight(holder: RightsHolder | null | undefined, page: string, action: string): boolean {
  if (!holder) return false;
  if (holder.superuser || holder.manageuser) return true;
  return holder.rights?.[page]?.[action]?.is === true;
}

/** Any of the listed pairs (spec §6: lists of pairs, any match). */
export function hasAnyRight(
  holder: RightsHolder | null | undefined,
  pairs: readonly (readonly [string, string])[],
): boolean {
  return pairs.some(([page, action]) => hasRight(holder, page, action));
}
