export {};

// For the tests that run in jsdom: findBy* and waitFor give up after 1 s by default, which a loaded
// machine exceeds while antd re-renders a form; the test's own timeout is the bound that matters.
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 10_000 });
}
