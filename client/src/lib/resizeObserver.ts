/**
 * `resize-observer-polyfill` for the browser build: vite.config.ts points antd's rc-resize-observer
 * here. Every browser the console supports has ResizeObserver natively, so the polyfill's 2.5 KB gzip
 * would never run.
 */
export default globalThis.ResizeObserver;
