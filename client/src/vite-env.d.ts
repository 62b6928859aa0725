/// <reference types="vite/client" />

// One antd icon by its own module (client/src/lib/refineOnDemand.tsx loads a few on demand); the package
// types only its barrel.
declare module '@ant-design/icons/es/icons/*' {
  const Icon: import('react').ComponentType<import('@ant-design/icons/es/components/AntdIcon').AntdIconProps>;
  export default Icon;
}
