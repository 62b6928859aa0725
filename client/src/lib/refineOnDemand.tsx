/**
 * antd parts @refinedev/antd imports for views the console never draws, loaded when one is first drawn:
 * vite.config.ts points those names of its `import { … } from 'antd'` here (the `rarely-used-on-demand`
 * plugin). Refine's package is one module, so a part any of its components names stays in every console
 * screen even when the screen never renders it:
 * - Drawer: ThemedSider's phone menu (the console passes its own Sider; its phone drawer loads lazily too);
 * - Breadcrumb: `<List>`/`<Create>`/`<Edit>`'s default breadcrumb (the console passes `breadcrumb={false}`);
 * - Popconfirm: DeleteButton's question (the console's rows delete through RowDelete's dialog).
 * A Refine view that does draw one still gets antd's component, one render later; a Popconfirm shows its
 * button meanwhile.
 */
import { lazy, Suspense, type ComponentProps } from 'react';

const LazyDrawer = /* @__PURE__ */ lazy(() => import('antd/es/drawer'));
const LazyBreadcrumb = /* @__PURE__ */ lazy(() => import('antd/es/breadcrumb'));
const LazyPopconfirm = /* @__PURE__ */ lazy(() => import('antd/es/popconfirm'));

export function Drawer(props: ComponentProps<typeof LazyDrawer>) {
  return (
    <Suspense fallback={null}>
      <LazyDrawer {...props} />
    </Suspense>
  );
}

export function Breadcrumb(props: ComponentProps<typeof LazyBreadcrumb>) {
  return (
    <Suspense fallback={null}>
      <LazyBreadcrumb {...props} />
    </Suspense>
  );
}

export function Popconfirm(props: ComponentProps<typeof LazyPopconfirm>) {
  return (
    <Suspense fallback={props.children}>
      <LazyPopconfirm {...props} />
    </Suspense>
  );
}
