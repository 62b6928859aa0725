/**
 * The Skeleton antd's Card, Modal and Drawer draw for `loading`, loaded when one first asks for it:
 * vite.config.ts points their `import Skeleton from '../skeleton'` here. Refine's List, Create and Edit draw
 * their content in a Card and show their loading with a Spin, the console's dialogs come from `App.useApp()`,
 * and no console card, dialog or drawer is given `loading`; yet those static imports put Skeleton and its
 * styles into every screen. One given `loading` still gets antd's Skeleton, one render later; the dashboards'
 * tiles import Skeleton themselves.
 */
import { onDemand } from './onDemand';

export default /* @__PURE__ */ onDemand(() => import('antd/es/skeleton'));
