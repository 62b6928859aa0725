import type { SendErrorCode } from '../types';
import type { GraphAnswer } from './graph';

/**
 * Graph's refusals of the template itself, whoever receives it: parameter count (132000), template
 * missing (132001), paused (132015), disabled (132016). The format policy (132007) and a parameter's
 * format (132012) can come from one recipient's filled-in value, so they fail that send only: ending the
 * blast on them would claim the same number first at every start.
 */
export const TEMPLATE_REFUSED: ReadonlySet<number> = new Set([132000, 132001, 132015, 132016]);
/**
 * Graph's refusals of the business number, whatever is sent: permission (10, 200), policy block (368),
 * account locked (131031), payment (131042), certificate (131045), spam restriction (131048), number not
 * registered (133010).
 */
export const ACCOUNT_REFUSED: ReadonlySet<number> = new Set([10, 200, 368, 131031, 131042, 131045, 131048, 133010]);

/** Graph's answer to a send → the product's outcome, or 'retry-rate' / 'retry-network' for another try. */
export function classify(a: Exclude<GraphAnswer, { ok: true }>): SendErrorCode | 'retry-rate' | 'retry-network' {
  if (a.kind === 'network') return 'retry-network';
  if (a.status === 401 || a.code === 190) return 'token_expired';
  if (a.status === 429 || a.code === 130429 || a.code === 131056 || a.code === 4 || a.code === 80007) return 'retry-rate';
  if (a.code === 131026) return 'not_registered';
  if (a.code === 131047) return 'reengagement';
  if (a.code !== null && TEMPLATE_REFUSED.has(a.code)) return 'no_template';
  if (a.code !== null && ACCOUNT_REFUSED.has(a.code)) return 'account_restricted';
  if (a.status >= 500) return 'retry-network';
  return 'failed';
}
