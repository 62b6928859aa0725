import type { ErrorCode } from './errors';

/** What Meta says about a mapping that will not send as it is, in the catalogue's words. */
export interface WaTemplateWarning {
  code: ErrorCode;
  /** The server's (Indonesian) text; the console shows `errors.<code>` with `params`. */
  msg: string;
  params: Record<string, string>;
  wabaId: string;
}

/** The answer of a template save that has a WhatsApp template name while Cloud API numbers are linked. */
export interface WaTemplateCheck {
  /** The WhatsApp Business Accounts of the linked Cloud API numbers, each asked once. */
  wabas: string[];
  /** Empty when every WABA has the template approved in that language with as many body parameters. */
  warnings: WaTemplateWarning[];
}
