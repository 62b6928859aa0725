/**
 * antd parts and icons @refinedev/antd imports for views the console never draws, loaded when one is first
 * drawn: vite.config.ts points those names of its `import { … } from 'antd'` and `'@ant-design/icons'` here
 * (the `rarely-used-on-demand` plugin). Refine's package is one module, so a part any of its components
 * names stays in every console screen even when the screen never renders it:
 * - Drawer: ThemedSider's phone menu (the console passes its own Sider; its phone drawer loads lazily too);
 * - Breadcrumb: `<List>`/`<Create>`/`<Edit>`'s default breadcrumb (the console passes `breadcrumb={false}`);
 * - Popconfirm: DeleteButton's question (the console's rows delete through RowDelete's dialog);
 * - the icons of ThemedSider, the breadcrumb's home, the back button (the console's views pass
 *   `goBack={false}`), the list and refresh buttons (`headerButtons={() => null}`) and the undo notice; the
 *   icons our own screens also draw stay as they are (an icon imported both ways would be a file of its own).
 * A Refine view that does draw one still gets antd's component, one render later; a Popconfirm shows its
 * button meanwhile.
 */
import { lazy, Suspense, type ComponentProps, type ComponentType } from 'react';
import type { AntdIconProps } from '@ant-design/icons/es/components/AntdIcon';

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

type Icon = ComponentType<AntdIconProps>;
function onDemandIcon(load: () => Promise<{ default: Icon }>): Icon {
  const Lazy = lazy(load);
  return function OnDemandIcon(props: AntdIconProps) {
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}

export const HomeOutlined = /* @__PURE__ */ onDemandIcon(() => import('@ant-design/icons/es/icons/HomeOutlined'));
export const LogoutOutlined = /* @__PURE__ */ onDemandIcon(() => import('@ant-design/icons/es/icons/LogoutOutlined'));
export const UnorderedListOutlined = /* @__PURE__ */ onDemandIcon(() => import('@ant-design/icons/es/icons/UnorderedListOutlined'));
export const RedoOutlined = /* @__PURE__ */ onDemandIcon(() => import('@ant-design/icons/es/icons/RedoOutlined'));
export const ArrowLeftOutlined = /* @__PURE__ */ onDemandIcon(() => import('@ant-design/icons/es/icons/ArrowLeftOutlined'));
export const ArrowRightOutlined = /* @__PURE__ */ onDemandIcon(() => import('@ant-design/icons/es/icons/ArrowRightOutlined'));
export const UndoOutlined = /* @__PURE__ */ onDemandIcon(() => import('@ant-design/icons/es/icons/UndoOutlined'));
