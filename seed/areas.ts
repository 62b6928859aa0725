// Each area's demo rows register themselves in seed/registry.ts; add one import per area.
export {};
// WhatsApp accounts first: the money history attaches to each member's first account.
import './whatsapp';
import './money';
import './contacts';
