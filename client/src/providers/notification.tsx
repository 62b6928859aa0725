import type { NotificationProvider } from '@refinedev/core';
import { App } from 'antd';

/**
 * Refine's notifications as antd notifications (the message as the title's description, as
 * @refinedev/antd shows them). Written here rather than imported so the console's shell does not pull
 * @refinedev/antd, and with it antd's Form, Progress and the rest, onto every screen. No call is
 * undoable, so a 'progress' notice is shown as plain information.
 */
export function useNotificationProvider(): NotificationProvider {
  const { notification } = App.useApp();
  return {
    open: ({ key, message, description, type }) => {
      notification.open({ key, description: message, message: description ?? null, type: type === 'progress' ? 'info' : type });
    },
    close: (key) => notification.destroy(key),
  };
}
