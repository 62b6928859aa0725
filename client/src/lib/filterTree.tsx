/**
 * The Tree antd's Table draws in a column filter with `filterMode: 'tree'`, loaded when such a filter first
 * opens: vite.config.ts points the filter dropdown's `import Tree from '../../../tree'` here, since the static
 * import put rc-tree (about 14 KB gzip with antd's Tree) into every list screen, and no console column has a
 * tree filter. A column given one still gets antd's Tree, one render later.
 */
import { lazy, Suspense, type ComponentProps } from 'react';

const Tree = lazy(() => import('antd/es/tree'));

export default function FilterTree(props: ComponentProps<typeof Tree>) {
  return (
    <Suspense fallback={null}>
      <Tree {...props} />
    </Suspense>
  );
}
