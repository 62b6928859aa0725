/**
 * antd's `Avatar.Group`, loaded when a group is first drawn: vite.config.ts points Avatar's
 * `import AvatarGroup from './AvatarGroup'` here, since the static import put the group's Popover into every
 * console screen (the top bar draws an Avatar), and no console screen draws a group. A group still gets
 * antd's component, one render later.
 */
import { onDemand } from './onDemand';

export default /* @__PURE__ */ onDemand(() => import('antd/es/avatar/AvatarGroup'));
