/**
 * The in-place editor of antd's Typography (`editable`), loaded when a text is first edited: vite.config.ts
 * points Typography's `import Editable from '../Editable'` here, since the static import put the editor into
 * every console screen (the top bar and page titles use Typography), and no console text is editable. An
 * editable text still gets antd's editor, one render later.
 */
import { onDemand } from './onDemand';

export default /* @__PURE__ */ onDemand(() => import('antd/es/typography/Editable'));
