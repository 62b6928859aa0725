/**
 * The Tabs antd's Card draws for a `tabList`, loaded when a card first asks for them: vite.config.ts points
 * Card's `import Tabs from '../tabs'` here, since a static import put Tabs (rc-tabs and its styles, about
 * 12 KB gzip) into every console screen that shows a card, and no console card has tabs. A card given a
 * `tabList` still gets antd's Tabs, one render later.
 */
import { lazy, Suspense, type ComponentProps } from 'react';

const Tabs = lazy(() => import('antd/es/tabs'));

export default function CardTabs(props: ComponentProps<typeof Tabs>) {
  return (
    <Suspense fallback={null}>
      <Tabs {...props} />
    </Suspense>
  );
}
