import type { HttpError, OpenNotificationParams } from '@refinedev/core';

/**
 * What a Refine call hands the notification provider (providers/notification.tsx), the same way on
 * every screen: a failure shows the server's text (the data provider already put the spec's fallback in
 * its place when the server gave none), a success the screen's own words.
 */
export const failWith =
  (fallback: string) =>
  (err?: HttpError): OpenNotificationParams => ({ message: err?.message || fallback, type: 'error' });

export const doneWith = (text: string) => (): OpenNotificationParams => ({ message: text, type: 'success' });
