import { lazy, Suspense, type ComponentProps, type ComponentType } from 'react';

/**
 * An antd part loaded when it is first drawn, for the stand-ins vite.config.ts puts in place of antd's static
 * imports of parts no console screen draws (avatarGroup, typographyEditable, uploadProgress, skeletonOnDemand,
 * inputOtp): a screen that does draw one gets antd's component one render later, with nothing drawn before.
 */
export function onDemand<C extends ComponentType<any>>(load: () => Promise<{ default: C }>): ComponentType<ComponentProps<C>> {
  const Part = lazy(load) as unknown as ComponentType<ComponentProps<C>>;
  return function OnDemand(props: ComponentProps<C>) {
    return (
      <Suspense fallback={null}>
        <Part {...props} />
      </Suspense>
    );
  };
}
