export {};

// For the tests that run in jsdom: findBy* and waitFor give up after 1 s by default, which a loaded
// machine exceeds while antd re-renders a form; the test's own timeout is the bound that matters.
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 10_000 });
  // antd's responsive helpers read matchMedia, which jsdom lacks.
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, addListener: () => undefined, removeListener: () => undefined, addEventListener: () => undefined, removeEventListener: () => undefined, onchange: null, dispatchEvent: () => false })) as unknown as typeof window.matchMedia;
}
