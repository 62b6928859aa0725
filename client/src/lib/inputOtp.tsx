/**
 * The one-time-code field of antd's Input (`Input.OTP`), loaded when first drawn: vite.config.ts points the
 * Input index's `import OTP from './OTP'` here, since every screen with an antd Input carried it and no console
 * screen draws it (the two-factor steps have their own field). An `Input.OTP` still gets antd's, one render later.
 */
import { onDemand } from './onDemand';

export default /* @__PURE__ */ onDemand(() => import('antd/es/input/OTP'));
