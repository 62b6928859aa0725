/**
 * The Progress antd's Upload draws in its file list while a file uploads through Upload itself, loaded when
 * first drawn: vite.config.ts points the list item's `import Progress from '../../progress'` here. The
 * console's file pickers keep the file (`beforeUpload` returns false) and upload it themselves, so their list
 * never shows it, yet the static import put Progress (rc-progress and its styles) into every screen with a
 * file picker. A list that does show it still gets antd's Progress, one render later.
 */
import { onDemand } from './onDemand';

export default /* @__PURE__ */ onDemand(() => import('antd/es/progress'));
