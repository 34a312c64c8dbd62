import { z } from 'zod';
import type { Language } from './constants.js';
import { type OnlineExtensionItem, type UserExtensionItemView, userExtensionItemsSchema } from './extension.js';
import type { MultiText } from './schemas/setup.js';

/**
 * The person's preview page (spec §2 Preview page, §3 Preview data, §7 Preview): what
 * `GET api/preview/v1/user/{subjectKey}/{code}` answers. Nothing beyond what the spec lists: no name,
 * no e-mail, no code. `tst{actionId}` (the action's test preview, admins only) answers sample data.
 */
export interface PreviewBlock {
  show: boolean;
  title: MultiText;
  html: MultiText;
}

export interface PreviewSelectBlock extends PreviewBlock {
  allowSelect: boolean;
  /** the selection deadline, YYYY-MM-DDTHH:mm on the subject's clock (null: none) */
  selectDateTime: string | null;
}

export interface PreviewData {
  previewData: {
    title: MultiText;
    /** address of the image (the action's preview logo), or null */
    image: string | null;
    credit: PreviewBlock;
    custom: PreviewBlock;
    meal: PreviewSelectBlock;
    parking: PreviewSelectBlock;
  };
  isCredit: boolean;
  /** the balance in Kč (null credit shows 0, spec §9) */
  credit: number;
  unlimited: boolean;
  /** the person's days of a multi-day action, with their names */
  userDays: { id: string; name: MultiText }[];
  /** the action's active meal items (empty without the extension) */
  mealItems: OnlineExtensionItem[];
  userMeal: UserExtensionItemView[];
  parkingItems: OnlineExtensionItem[];
  userParking: UserExtensionItemView[];
  /** self-selection open now: allowSelect on and the deadline not passed */
  allowMealSelect: boolean;
  allowParkingSelect: boolean;
  multiLanguage: boolean;
  /** the subject's languages (cs only without multiLanguage) */
  languages: Language[];
  /** a test preview with sample data (nothing can be saved) */
  test: boolean;
}

/**
 * `PUT api/preview/v1/user/{subjectKey}/{code}/extension/{type}`: the person's whole selection of
 * that type. Items named are had (with the option and, for parking, the licence plate); active items
 * the person has and does not name are given back; used meals stay.
 */
export const previewSelectionSchema = z.object({ items: userExtensionItemsSchema });
export type PreviewSelectionInput = z.input<typeof previewSelectionSchema>;

/** A test preview's code: `tst{actionId}`. */
export const TEST_PREVIEW_CODE = /^tst([1-9][0-9]{0,9})$/;
