import type { WaTemplateCheck } from '../../../../common/wa-template-check';

export type ButtonType = 'reply_button' | 'call_button' | 'url_button' | 'stop_button';

export interface MessageButton {
  id: string;
  title: string;
  url: string;
  type: ButtonType;
}

export interface MessageRow {
  id: number;
  media: string | null;
  text: string;
  text_wa: string;
  button: MessageButton[];
  status: 'active' | 'nonactive';
  count_use: number;
  /** The approved Cloud API template a Cloud API account sends this as, its language and body parameters. */
  waTemplateName: string | null;
  waTemplateLanguage: string | null;
  waTemplateParams: WaParam[];
  /** Only on the answer of a save: what Meta said about the mapping (null when nothing was asked). */
  waTemplateCheck?: WaTemplateCheck | null;
}

export type { WaTemplateCheck, WaTemplateWarning } from '../../../../common/wa-template-check';

/** What a Cloud API template body parameter is filled with, per target. */
export type WaParam = '{name}' | '{phoneNumber}';
export const WA_PARAMS: WaParam[] = ['{name}', '{phoneNumber}'];
export const MAX_WA_PARAMS = 10;
/** Meta's rules: template names are lower-case letters, digits and underscores; languages look like id or en_US. */
export const WA_NAME = /^[a-z0-9_]+$/;
export const WA_LANGUAGE = /^[a-z]{2,3}(_[A-Z]{2})?$/;

export const BUTTON_TYPES: ButtonType[] = ['reply_button', 'call_button', 'url_button', 'stop_button'];

/** A button type's label key in the message locale file. */
export const buttonTypeKey = (type: string) => `message.buttonTypes.${type}`;

let counter = 0;
/** The editor's starting set: 3 empty reply buttons. */
export function emptyButtons(): MessageButton[] {
  return Array.from({ length: 3 }, () => ({ id: `new-${Date.now().toString(36)}-${++counter}`, title: '', url: '', type: 'reply_button' as const }));
}

/** The spec's alert for a half-filled button (its locale key and values), or null. */
export function buttonProblem(b: MessageButton): { key: string; values: Record<string, string> } | null {
  const title = b.title.trim();
  const url = b.url.trim();
  if (title && !url) return { key: 'message.titleWithoutUrl', values: { title } };
  if (url && !title) return { key: 'message.urlWithoutTitle', values: { url } };
  return null;
}

/** Whether caption HTML has any visible text. */
export function hasCaption(html: string): boolean {
  return html.replace(/<[^>]*>/g, '').replace(/&nbsp;|\s/g, '').length > 0;
}

const IMAGE = /\.(jpe?g|png|gif|webp|bmp|svg)$/i;
export const isImage = (media: string) => IMAGE.test(media);
